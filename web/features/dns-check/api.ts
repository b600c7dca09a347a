import { DnsCheckStateSchema } from '../../../common/dns-check';
import { TaskStartedSchema } from '../../../common/tasks';
import { http } from '../../lib/http';

export const dnsCheckKey = ['dns-check'] as const;

export const getDnsCheck = () => http.get('/dns-check', DnsCheckStateSchema);
export const startDnsCheck = () => http.post('/dns-check', {}, TaskStartedSchema);
