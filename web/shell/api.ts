import { ConnectorStatusSchema, StylesheetSchema, VersionSchema } from '../../common/shell';
import { http } from '../lib/http';

export const fetchVersion = () => http.get('/version', VersionSchema);
export const fetchConnectorStatus = () => http.get('/connector/status', ConnectorStatusSchema);
export const fetchStylesheet = () => http.get('/shell/stylesheet', StylesheetSchema);
