import {
  type Settings,
  SettingsSchema,
  type TestPersonInput,
  TestPersonViewSchema,
} from '../../../common/settings';
import { http } from '../../lib/http';

export const settingsKey = ['settings'] as const;
export const testPersonKey = ['testperson'] as const;

export const getSettings = () => http.get('/settings', SettingsSchema);
// spec 001 §5: a non-numeric 'Minimale verzendingen' is sent as typed; the server refuses it.
export const saveSettings = (body: Omit<Settings, 'minMailings'> & { minMailings: unknown }) =>
  http.post('/settings', body, SettingsSchema);
export const getTestPerson = () => http.get('/testperson', TestPersonViewSchema);
export const saveTestPerson = (body: TestPersonInput) => http.put('/testperson', body, TestPersonViewSchema);
