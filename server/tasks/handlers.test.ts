import { describe, expect, it } from 'vitest';
import { taskStateLabel, taskTypeLabel } from '../../common/tasks';
import type { AppContext } from '../context';
import { registerTaskHandlers } from './handlers';

describe('task types', () => {
  it('each registered task type has a Dutch name for /tasks', () => {
    const types: string[] = [];
    registerTaskHandlers({
      tasks: { register: (type: string) => types.push(type), onReap: () => {} },
    } as unknown as AppContext);
    expect(types.length).toBeGreaterThan(5);
    for (const type of types) expect(taskTypeLabel(type), type).not.toBe(type);
    expect(taskTypeLabel('import')).toBe('Upload');
    expect(taskTypeLabel('iets-nieuws')).toBe('iets-nieuws');
    expect(taskTypeLabel('constructor')).toBe('constructor');
  });

  it('each state has a Dutch name', () => {
    for (const [state, label] of [
      ['queued', 'In de wachtrij'],
      ['parsing', 'Inlezen'],
      ['sorting', 'Sorteren'],
      ['saving', 'Opslaan'],
      ['updating', 'Bijwerken'],
      ['executing', 'Uitvoeren'],
      ['done', 'Klaar'],
      ['failed', 'Mislukt'],
    ]) {
      expect(taskStateLabel(state)).toBe(label);
    }
  });
});
