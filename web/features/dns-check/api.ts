import { DnsCheckStateSchema } from '../../../common/dns-check';
import { TaskStartedSchema } from '../../../common/tasks';
import { http } from '../../lib/http';

/** The TanStack Query key of the last DNS check and its results. */
export const dnsCheckKey = ['dns-check'] as const;

/** Fetches the last DNS check's task and, once it is done, its results (GET /api/dns-check). */
export const getDnsCheck = () => http.get('/dns-check', DnsCheckStateSchema);
/** Starts a DNS check and returns its task (POST /api/dns-check). */
export const startDnsCheck = () => http.post('/dns-check', {}, TaskStartedSchema);
