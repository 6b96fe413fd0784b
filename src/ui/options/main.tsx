import { render } from 'preact';
import { uiLanguage } from '../shared/i18n';
import { Options } from './Options';

document.documentElement.lang = uiLanguage();
render(<Options />, document.getElementById('app') as HTMLElement);
