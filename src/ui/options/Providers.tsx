/**
 * Providers in ranking order (drag or up/down), each with its switch, its fields and "test
 * connection": one short Translate with rid=<provider>, after saving, so the engine uses exactly
 * what is on screen.
 */
import { useState } from 'preact/hooks';
import { callApi } from '../../shared/api';
import { requestHostAccess } from '../../shared/hosts';
import type { Settings } from '../../core/settings/types';
import type { TrObj } from '../../core/types';
import { t } from '../shared/i18n';
import { SortableList } from '../shared/SortableList';
import { PROVIDER_INFO, rankedIds, withField, type FieldName, type ProviderInfo } from './fields';

interface Props {
  doc: Settings;
  onDoc: (doc: Settings) => void;
  /** Stores the document; resolves false when validation refused it. */
  save: () => Promise<boolean>;
}

const LABELS: Record<FieldName, string> = {
  url: 'URL', key: 'Key', region: 'Region', model: 'Model', email: 'Email', folderId: 'Folder id', limit: 'Characters per request',
};

export const TEST_TEXT = 'Hello world';

/** What "test connection" found: the provider's translation of TEST_TEXT, or its err. */
export function testOutcome(id: string, status: number, body: unknown): { ok: boolean; text: string } {
  const b = body as { err?: string; dat?: TrObj[] } | null;
  const item = b?.dat?.find((x) => x.rid === id);
  if (item?.text) return { ok: true, text: item.text.join(' ') };
  if (item?.err) return { ok: false, text: item.err };
  return { ok: false, text: b?.err ?? `status ${status}` };
}

function ProviderFields({ info, doc, onDoc, save }: Props & { info: ProviderInfo }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const settings = doc.providers[info.id] ?? {};
  const test = async () => {
    // In the click, before any await: the browser asks for host access only during a user gesture.
    const access = requestHostAccess([settings.url ?? info.defaultUrl]);
    setBusy(true);
    setResult(undefined);
    try {
      if (!(await save())) return;
      await access;
      const reply = await callApi('Translate', { src: 'en', trg: 'es', dat: [TEST_TEXT], rid: [info.id], min: 1, max: 1, timeout: 15 });
      setResult(testOutcome(info.id, reply.status, reply.body));
    } catch (e) {
      setResult({ ok: false, text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="provider-fields">
      <summary>{t('providerSettings', 'Settings')}</summary>
      {info.fields.map((field) => {
        const id = `${info.id}-${field}`;
        const value = settings[field];
        const change = (e: { currentTarget: HTMLInputElement }) =>
          onDoc({ ...doc, providers: { ...doc.providers, [info.id]: withField(settings, field, e.currentTarget.value) } });
        return (
          <p class="field" key={field}>
            <label for={id}>{t(`field_${field}`, LABELS[field])}</label>
            {field === 'key' ? (
              <input id={id} type="password" autocomplete="off" value={value === undefined ? '' : String(value)} onChange={change} />
            ) : (
              <input id={id} type="text" inputMode={field === 'limit' ? 'numeric' : 'text'} autocomplete="off" spellcheck={false}
                value={value === undefined ? '' : String(value)} placeholder={field === 'url' ? info.defaultUrl ?? '' : ''} onChange={change} />
            )}
          </p>
        );
      })}
      <p class="field">
        <button type="button" disabled={busy} onClick={() => void test()}>{t('testConnection', 'Test connection')}</button>
        <output class={`test-result ${result?.ok ? 'ok' : 'error'}`} aria-live="polite">
          {busy ? t('testing', 'Testing…') : result ? (result.ok ? `✓ ${result.text}` : `✗ ${result.text}`) : ''}
        </output>
      </p>
    </details>
  );
}

export function Providers(props: Props) {
  const { doc, onDoc } = props;
  const ids = rankedIds(doc.ranking, PROVIDER_INFO.map((p) => p.id));
  const items = ids.map((id) => ({ id, on: doc.providers[id]?.enabled === true }));
  const info = (id: string) => PROVIDER_INFO.find((p) => p.id === id);
  return (
    <section aria-labelledby="providers-title">
      <h2 id="providers-title">{t('providers', 'Providers')}</h2>
      <p class="hint">{t('providersHint', 'Best first: routes through higher providers come first. Drag a row or use its arrows.')}</p>
      <SortableList
        testId="providers"
        label={t('ranking', 'Provider ranking')}
        items={items}
        name={(item) => `${info(item.id)?.name ?? item.id} (${item.id})`}
        onChange={(next) => {
          // A provider switched on: ask for its host now, in the click (see requestHostAccess).
          const enabled = next.filter((item) => item.on && doc.providers[item.id]?.enabled !== true);
          if (enabled.length) void requestHostAccess(enabled.map((item) => doc.providers[item.id]?.url ?? info(item.id)?.defaultUrl));
          const providers = { ...doc.providers };
          for (const item of next) providers[item.id] = { ...(providers[item.id] ?? {}), enabled: item.on };
          onDoc({ ...doc, providers, ranking: next.map((i) => i.id) });
        }}
        extra={(item) => {
          const p = info(item.id);
          return p ? <ProviderFields {...props} info={p} /> : null;
        }}
      />
    </section>
  );
}
