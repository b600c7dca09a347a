import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The package version, reported as the api version. */
export const APP_VERSION: string = require('../package.json').version;
