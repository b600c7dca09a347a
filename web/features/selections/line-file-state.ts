import { generatedName, type LINE_BASES, type LineMapping } from '../../../common/selections';

// spec 001 §3 CSV mapping for line files and §5 line CSV mapping: per column of the file a mapped
// attribute or a base entry (id, dataset, datasetDescription, domain) whose generated name
// defaults to 'gen_' + the base with a 0 added until unique (common generatedName).

/** What the user chose for one column of a line file. */
export interface LineColumn {
  field: string;
  kind: 'none' | 'attribute' | 'base';
  mapped: string;
  base: (typeof LINE_BASES)[number];
  basePartner: string;
  generated: string;
}

/** The columns of a file's header row, none mapped yet. */
export function columnsOf(headers: string[]): LineColumn[] {
  return headers.map((field) => ({
    field,
    kind: 'none',
    mapped: '',
    base: 'id',
    basePartner: '',
    generated: '',
  }));
}

/** The names the other columns use (mapped attributes and generated names). */
function namesBesides(columns: LineColumn[], index: number): string[] {
  return columns.flatMap((c, i) =>
    i === index || c.kind === 'none' ? [] : [c.kind === 'base' ? c.generated : c.mapped.trim()],
  );
}

/** Changes one column; choosing a base entry (or another base) gives it the next free generated name. */
export function updateColumn(
  columns: LineColumn[],
  index: number,
  change: Partial<LineColumn>,
): LineColumn[] {
  return columns.map((column, i) => {
    if (i !== index) return column;
    const next = { ...column, ...change };
    const baseChosen = next.kind === 'base' && (column.kind !== 'base' || change.base !== undefined);
    if (baseChosen && change.generated === undefined) {
      next.generated = generatedName(next.base, namesBesides(columns, index));
    }
    return next;
  });
}

/** The `mappings` field of the upload: the mapped columns only, names trimmed (spec 001 §5). */
export function lineMappingsOf(columns: LineColumn[]): LineMapping[] {
  return columns.flatMap((c): LineMapping[] => {
    if (c.kind === 'attribute' && c.mapped.trim() !== '')
      return [{ field: c.field, mapped: c.mapped.trim() }];
    if (c.kind === 'base') {
      return [
        {
          type: 'base',
          field: c.field,
          base: c.base,
          basePartner: c.basePartner.trim() || null,
          generated: c.generated.trim(),
        },
      ];
    }
    return [];
  });
}

/** The line's `fields`: the names the records must equal, in column order. */
export function lineFieldsOf(columns: LineColumn[]): string[] {
  return lineMappingsOf(columns).map((m) => ('generated' in m ? m.generated : m.mapped));
}
