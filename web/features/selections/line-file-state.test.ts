import { describe, expect, it } from 'vitest';
import { LineMappingsSchema } from '../../../common/selections';
import { columnsOf, lineFieldsOf, lineMappingsOf, updateColumn } from './line-file-state';

describe('line file mapping', () => {
  it('gives base entries gen_ names with a 0 added until unique and sends only mapped columns', () => {
    let columns = columnsOf(['mail', 'pc', 'mail2', 'extra']);
    columns = updateColumn(columns, 0, { kind: 'base', base: 'id' });
    columns = updateColumn(columns, 2, { kind: 'base', base: 'id' });
    columns = updateColumn(columns, 1, { kind: 'attribute', mapped: ' postcode ' });
    expect(columns.map((c) => c.generated)).toEqual(['gen_id', '', 'gen_id0', '']);
    const mappings = lineMappingsOf(columns);
    expect(mappings).toEqual([
      { type: 'base', field: 'mail', base: 'id', basePartner: null, generated: 'gen_id' },
      { field: 'pc', mapped: 'postcode' },
      { type: 'base', field: 'mail2', base: 'id', basePartner: null, generated: 'gen_id0' },
    ]);
    expect(lineFieldsOf(columns)).toEqual(['gen_id', 'postcode', 'gen_id0']);
    expect(LineMappingsSchema.safeParse(mappings).success).toBe(true);
  });

  it('renames on a new base, keeps a typed name, and the server contract refuses nothing mapped', () => {
    let columns = updateColumn(columnsOf(['d']), 0, { kind: 'base', base: 'dataset' });
    expect(columns[0].generated).toBe('gen_dataset');
    columns = updateColumn(columns, 0, { base: 'domain' });
    expect(columns[0].generated).toBe('gen_domain');
    columns = updateColumn(columns, 0, { generated: 'mijn_domein' });
    expect(lineFieldsOf(columns)).toEqual(['mijn_domein']);
    const none = lineMappingsOf(columnsOf(['a']));
    expect(none).toEqual([]);
    expect(LineMappingsSchema.safeParse(none).success).toBe(false);
  });
});
