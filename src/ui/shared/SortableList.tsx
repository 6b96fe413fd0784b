/**
 * A reorderable list with switches: drag and drop (HTML5, which Chromium and Firefox both do for
 * list rows) and, for keyboards and screen readers, "up"/"down" buttons on each row. Each move is
 * announced in a live region because the focused button stays put while its row moves.
 */
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { t } from './i18n';
import { move } from './routes';

export interface SortableItem {
  id: string;
  on: boolean;
}

interface Props<T extends SortableItem> {
  items: readonly T[];
  label: string;
  /** Visible name of an item. */
  name: (item: T) => string;
  onChange: (items: T[]) => void;
  /** Extra controls after the name (e.g. provider fields). */
  extra?: (item: T) => ComponentChildren;
  testId?: string;
}

export function SortableList<T extends SortableItem>({ items, label, name, onChange, extra, testId }: Props<T>) {
  const dragged = useRef<number | undefined>(undefined);
  const [over, setOver] = useState<number | undefined>(undefined);
  const [said, setSaid] = useState('');

  const moveTo = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const item = items[from];
    onChange(move(items, from, to));
    if (item) setSaid(t('moved', '$1 moved to position $2', name(item), String(to + 1)));
  };

  return (
    <div class="sortable">
      <ol class="sortable-list" aria-label={label} data-testid={testId}>
        {items.map((item, i) => (
          <li
            key={item.id}
            class={`sortable-row${over === i ? ' drop-target' : ''}${item.on ? '' : ' off'}`}
            data-id={item.id}
            draggable
            onDragStart={(e) => {
              dragged.current = i;
              e.dataTransfer?.setData('text/plain', item.id);
              if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(i);
            }}
            onDragLeave={() => setOver(undefined)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(undefined);
              if (dragged.current !== undefined) moveTo(dragged.current, i);
              dragged.current = undefined;
            }}
            onDragEnd={() => setOver(undefined)}
          >
            <span class="grip" aria-hidden="true">⋮⋮</span>
            <label class="sortable-name">
              <input
                type="checkbox"
                checked={item.on}
                onChange={(e) => onChange(items.map((x, j) => (j === i ? { ...x, on: e.currentTarget.checked } : x)))}
              />
              <span>{name(item)}</span>
            </label>
            <span class="sortable-buttons">
              <button type="button" class="icon" disabled={i === 0} onClick={() => moveTo(i, i - 1)}
                aria-label={t('moveUp', 'Move $1 up', name(item))} title={t('moveUpShort', 'Move up')}>↑</button>
              <button type="button" class="icon" disabled={i === items.length - 1} onClick={() => moveTo(i, i + 1)}
                aria-label={t('moveDown', 'Move $1 down', name(item))} title={t('moveDownShort', 'Move down')}>↓</button>
            </span>
            {extra?.(item)}
          </li>
        ))}
      </ol>
      <p class="visually-hidden" role="status" aria-live="polite">{said}</p>
    </div>
  );
}
