import { render } from 'preact';
import { uiLanguage } from '../shared/i18n';
import { Popup } from './Popup';

document.documentElement.lang = uiLanguage();
render(<Popup />, document.getElementById('app') as HTMLElement);
