/**
 * The pair's route list (GetRoutes) in the user's order, with switches, and min/max/timeout.
 * The order is kept per pair in storage.local (`ui:routes`), see ../shared/routes.ts.
 */
import type { ProviderHealth } from '../../core/scheduler/index';
import { formatMs, routeLabel } from '../shared/alternatives';
import { routeHealth } from '../shared/health';
import type { RouteRow } from '../shared/routes';
import { t } from '../shared/i18n';
import { SortableList } from '../shared/SortableList';

export interface Limits {
  min: number;
  max: number;
  timeout: number;
}

interface Props {
  rows: readonly RouteRow[];
  onRows: (rows: RouteRow[]) => void;
  limits: Limits;
  onLimits: (limits: Limits) => void;
  loading: boolean;
  /** The `health` message's answer: shown as ok / limited / down beside each route. */
  health?: Readonly<Record<string, ProviderHealth>>;
  /** Said instead of "No route translates this pair" (no pair yet: the source is being detected). */
  empty?: string;
}

function HealthBadge({ rid, health }: { rid: string; health: Readonly<Record<string, ProviderHealth>> }) {
  const h = routeHealth(rid, health);
  if (!h) return null;
  const label = h.state === 'ok' ? t('healthOk', 'ok') : h.state === 'limited' ? t('healthLimited', 'limited') : t('healthDown', 'down');
  const title = [h.p50 !== undefined ? t('healthLatency', 'median $1', formatMs(h.p50)) : '', h.error ?? ''].filter(Boolean).join(' · ');
  return <span class={`health health-${h.state}`} data-state={h.state} title={title || undefined}>{label}</span>;
}

function NumberField({ id, label, value, min, max, onValue }: {
  id: string; label: string; value: number; min: number; max: number; onValue: (n: number) => void;
}) {
  return (
    <span class="number-field">
      <label for={id}>{label}</label>
      <input id={id} type="number" min={min} max={max} value={value}
        onChange={(e) => {
          const n = Number.parseInt(e.currentTarget.value, 10);
          if (Number.isInteger(n)) onValue(Math.max(min, Math.min(max, n)));
        }} />
    </span>
  );
}

export function RoutesPanel({ rows, onRows, limits, onLimits, loading, health, empty }: Props) {
  return (
    <details class="routes-panel" open>
      <summary>{t('routes', 'Routes')} ({rows.filter((r) => r.on).length}/{rows.length})</summary>
      {loading ? <p>{t('loading', 'Loading…')}</p> : rows.length === 0 ? (
        <p class="empty">{empty ?? t('noRoutes', 'No route translates this pair.')}</p>
      ) : (
        <SortableList
          testId="routes"
          label={t('routesFor', 'Routes, best first')}
          items={rows.map((r) => ({ id: r.rid, on: r.on }))}
          name={(item) => routeLabel(item.id)}
          onChange={(items) => onRows(items.map((i) => ({ rid: i.id, on: i.on })))}
          extra={health ? (item) => <HealthBadge rid={item.id} health={health} /> : undefined}
        />
      )}
      <p class="hint">{t('routesHint', 'Switched-off routes are only used when the others fail.')}</p>
      <div class="limits">
        <NumberField id="min" label={t('min', 'Min')} value={limits.min} min={1} max={10} onValue={(min) => onLimits({ ...limits, min, max: Math.max(min, limits.max) })} />
        <NumberField id="max" label={t('max', 'Max')} value={limits.max} min={1} max={10} onValue={(max) => onLimits({ ...limits, max, min: Math.min(max, limits.min) })} />
        <NumberField id="timeout" label={t('timeout', 'Timeout (s)')} value={limits.timeout} min={1} max={120} onValue={(timeout) => onLimits({ ...limits, timeout })} />
      </div>
    </details>
  );
}
