import { ConnectorStatusSchema, StylesheetSchema, VersionSchema } from '../../common/shell';
import { http } from '../lib/http';

/** Fetches the API and updater versions for the sidebar (GET /api/version). */
export const fetchVersion = () => http.get('/version', VersionSchema);
/** Fetches the connector status for the sidebar (GET /api/connector/status). */
export const fetchConnectorStatus = () => http.get('/connector/status', ConnectorStatusSchema);
/** Fetches the URL of this environment's custom stylesheet (GET /api/shell/stylesheet). */
export const fetchStylesheet = () => http.get('/shell/stylesheet', StylesheetSchema);
