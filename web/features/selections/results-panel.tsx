import { Button, Checkbox, Group, Table, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  type Category,
  DEFAULT_SELECTED_CATEGORIES,
} from '../../../common/extra-inzet';
import { stripClientKeys } from '../../../common/query-tree';
import { ScrollTable } from '../../components/scroll-table';
import { FunnelPanel } from '../builder/funnel-panel';
import { PreviewPanel } from '../builder/preview-panel';
import { type BuilderDraft, setDraft } from './builder-store';
import {
  editCell,
  isSelectable,
  type ResultLine,
  readCell,
  redistributeLines,
  selectLine,
  totalsOf,
} from './results-state';

const n = (v: number) => v.toLocaleString('nl-NL');
const setLines = (update: (lines: ResultLine[]) => ResultLine[]) =>
  setDraft((d) => (d.results ? { ...d, results: { ...d.results, lines: update(d.results.lines) } } : d));

/**
 * A result cell (spec 001 §5: a whole number between 0 and the original count): the text as typed,
 * read like every number ('1.250' is 1250) by readCell. A text it refuses ('1,5', '-3', more than
 * the original) stays as typed with its message beside the cell and changes nothing; the stored
 * count shows again when the field is left with a good number.
 */
function CountCell(props: {
  label: string;
  value: number;
  original: number;
  disabled: boolean;
  onChange: (value: number) => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const reading = typed === null ? null : readCell(typed, props.original);
  return (
    <TextInput
      size="xs"
      w={130}
      inputMode="numeric"
      aria-label={props.label}
      value={typed ?? n(props.value)}
      disabled={props.disabled}
      error={reading && !reading.ok ? reading.message : null}
      description={props.value !== props.original ? `van ${n(props.original)}` : undefined}
      onChange={(e) => {
        const text = e.currentTarget.value;
        setTyped(text);
        const next = readCell(text, props.original);
        if (next.ok) props.onChange(next.value);
      }}
      // A good number shows as stored; a refused text stays as typed with its message.
      onBlur={() => {
        if (reading?.ok) setTyped(null);
      }}
    />
  );
}

function ResultsTable({ lines, isStale }: { lines: ResultLine[]; isStale: boolean }) {
  const [categories, setCategories] = useState<Record<Category, boolean>>({ ...DEFAULT_SELECTED_CATEGORIES });
  const totals = totalsOf(lines);
  if (lines.length === 0) return <Text c="dimmed">Geen adressen gevonden voor deze selectie.</Text>;
  return (
    <>
      <Group mb="xs" gap="lg" aria-label="Kolommen voor extra inzet">
        {CATEGORIES.map((c) => (
          <Checkbox
            key={c}
            label={CATEGORY_LABELS[c]}
            checked={categories[c]}
            disabled={isStale}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              setCategories((s) => ({ ...s, [c]: checked }));
            }}
          />
        ))}
        <Button
          size="xs"
          variant="light"
          disabled={isStale}
          onClick={() => setLines((ls) => redistributeLines(ls, categories))}
        >
          Herverdeel met extra inzet
        </Button>
      </Group>
      <ScrollTable striped verticalSpacing={4} data-testid="results-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th>Bestand</Table.Th>
            <Table.Th>Extra inzet</Table.Th>
            {CATEGORIES.map((c) => (
              <Table.Th key={c}>{CATEGORY_LABELS[c]}</Table.Th>
            ))}
            <Table.Th>Totaal</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => {
            const selectable = isSelectable(line);
            return (
              <Table.Tr
                key={line.key}
                data-testid="result-row"
                data-dataset={line.row.dataset.name}
                data-saved={line.row.saved}
                data-changed={line.changed}
                bg={line.changed ? 'yellow.0' : undefined}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Selecteer ${line.row.dataset.name}`}
                    checked={line.selected}
                    disabled={!selectable || isStale}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      setLines((ls) => selectLine(ls, line.key, checked));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  {line.row.dataset.name}
                  {line.row.saved && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (al in de mailing)
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{line.row.dataset.factor.toLocaleString('nl-NL')}</Table.Td>
                {CATEGORIES.map((c) => (
                  <Table.Td key={c}>
                    {selectable ? (
                      <CountCell
                        label={`${CATEGORY_LABELS[c]} ${line.row.dataset.name}`}
                        value={line.modified[c]}
                        original={line.original[c]}
                        disabled={!line.selected || isStale}
                        onChange={(v) => setLines((ls) => editCell(ls, line.key, c, v))}
                      />
                    ) : (
                      n(line.original[c])
                    )}
                  </Table.Td>
                ))}
                <Table.Td data-testid="row-total">
                  {n(selectable ? line.modified.total : line.row.total)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          {totals.saved.total > 0 && (
            <Table.Tr>
              <Table.Th />
              <Table.Th colSpan={2}>Al in de mailing</Table.Th>
              {CATEGORIES.map((c) => (
                <Table.Th key={c}>{n(totals.saved[c])}</Table.Th>
              ))}
              <Table.Th data-testid="saved-total">{n(totals.saved.total)}</Table.Th>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th />
            <Table.Th colSpan={2}>Totaal geselecteerd</Table.Th>
            {CATEGORIES.map((c) => (
              <Table.Th key={c}>{n(totals.selected[c])}</Table.Th>
            ))}
            <Table.Th data-testid="selected-total">{n(totals.selected.total)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </ScrollTable>
    </>
  );
}

/**
 * The results under the tabs 'Resultaten', 'Per regel' (the funnel), 'Voorbeeld' and 'Query' (spec
 * 001 §2): while a count runs or after the query changed, the previous result stays visible, greyed.
 */
export function ResultsPanel({ draft, isStale }: { draft: BuilderDraft; isStale: boolean }) {
  const [tab, setTab] = useState<string | null>('results');
  if (!draft.results) return null;
  return (
    <Tabs value={tab} onChange={setTab} mt="md" data-stale={isStale}>
      <Tabs.List>
        <Tabs.Tab value="results">Resultaten</Tabs.Tab>
        <Tabs.Tab value="funnel">Per regel</Tabs.Tab>
        <Tabs.Tab value="preview">Voorbeeld</Tabs.Tab>
        <Tabs.Tab value="query">Query</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="results" pt="sm" style={{ opacity: isStale ? 0.5 : 1 }}>
        <ResultsTable lines={draft.results.lines} isStale={isStale} />
      </Tabs.Panel>
      <Tabs.Panel value="funnel" pt="sm" style={{ opacity: isStale ? 0.5 : 1 }}>
        <FunnelPanel draft={draft} />
      </Tabs.Panel>
      <Tabs.Panel value="preview" pt="sm">
        {tab === 'preview' && <PreviewPanel draft={draft} />}
      </Tabs.Panel>
      <Tabs.Panel value="query" pt="sm">
        <Textarea label="Query" readOnly autosize minRows={2} value={draft.results.queryText} />
        <Textarea
          label="Query (JSON)"
          mt="sm"
          readOnly
          autosize
          minRows={3}
          value={JSON.stringify(stripClientKeys(draft.query), null, 2)}
        />
      </Tabs.Panel>
    </Tabs>
  );
}
