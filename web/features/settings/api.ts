import { type IssuerInput, IssuerViewSchema } from '../../../common/issuer';
import {
  type Settings,
  SettingsSchema,
  type TestPersonInput,
  TestPersonViewSchema,
} from '../../../common/settings';
import { http } from '../../lib/http';

/** The TanStack Query key of the send settings. */
export const settingsKey = ['settings'] as const;
/** The TanStack Query key of the global test person. */
export const testPersonKey = ['testperson'] as const;

/** Fetches the send settings (GET /api/settings). */
export const getSettings = () => http.get('/settings', SettingsSchema);
// spec 001 §5: a non-numeric 'Minimale verzendingen' is sent as typed; the server refuses it.
/** Saves the settings and returns them (POST /api/settings); the retention period only when it is sent. */
export const saveSettings = (
  body: Omit<Settings, 'minMailings' | 'retentionDays'> & { minMailings: unknown; retentionDays?: unknown },
) => http.post('/settings', body, SettingsSchema);
/** Fetches the global test person (GET /api/testperson). */
export const getTestPerson = () => http.get('/testperson', TestPersonViewSchema);
/** Saves the global test person and returns it (PUT /api/testperson). */
export const saveTestPerson = (body: TestPersonInput) => http.put('/testperson', body, TestPersonViewSchema);
/** The TanStack Query key of the issuer's details (the settings screen and the statements screen share it). */
export const issuerKey = ['settings', 'issuer'] as const;
/** Fetches the issuer's details of statements (GET /api/settings/issuer). */
export const getIssuer = () => http.get('/settings/issuer', IssuerViewSchema);
/** Saves the issuer's details and returns them as stored (PUT /api/settings/issuer; administrators only). */
export const saveIssuer = (body: IssuerInput) => http.put('/settings/issuer', body, IssuerViewSchema);
