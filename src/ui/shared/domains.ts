/** The interface's dom values (interface.md 4.1) with labels people understand. */
import type { Domain } from '../../core/types';
import { t } from './i18n';

const LABELS: Record<Domain, string> = {
  general: 'General',
  art: 'Arts and literature',
  law: 'Law',
  sci: 'Science',
  tech: 'Technology',
  info: 'Computing',
  tel: 'Telecommunications',
  bio: 'Medicine and biology',
  eco: 'Economy and finance',
  agr: 'Agriculture',
  travel: 'Travel',
  mil: 'Military',
  sport: 'Sport',
};

export function domainLabel(dom: Domain): string {
  return t(`dom_${dom}`, LABELS[dom]);
}
