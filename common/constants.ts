// Business constants of spec 000 §9 and spec 001 §9, in one place for server and web.

/** Web app version shown in the sidebar (spec 001 §1). */
export const WEB_VERSION = '1.5.0';
export const LIST_PAGE_SIZE = 10;
export const PAGINATOR_BUTTONS = 5;
export const SEARCH_MAX_LENGTH = 100;
export const TASK_SEARCH_MAX_LENGTH = 50;
export const TASK_POLL_MS = 5000;
export const UPLOAD_TASK_POLL_MS = 2000;
export const SELECTION_TASK_POLL_MS = 2000;
export const TASK_LIST_POLL_MS = 1000;
export const CONNECTOR_POLL_MS = 2000;
export const AUTOCOMPLETE_DELAY_MS = 500;
export const CAMPAIGN_PAGE_SIZE = 20;
export const CAMPAIGN_DAYS_DEFAULT = 30;
export const TOKEN_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 8;
/** The longest password the login accepts, and so the longest one a user can be given. */
export const PASSWORD_MAX_LENGTH = 1000;
/** The longest username (login and user forms). */
export const USERNAME_MAX_LENGTH = 200;
export const TEMPLATE_DESCRIPTION_MAX = 65;
export const INTEREST_TYPE_PAGE_SIZE = 10;
export const DEFAULT_COUNTRY = 'NL';
export const DEFAULT_GENDER = 'M';
export const POSTCODE_COMPANIONS = ['pc1', 'pc2', 'pc3', 'pc4', 'pc6'] as const;
/** spec 001 §4: the mailing states (Concept, Definitief, Aangeboden, Geannuleerd). */
export const MAILING_STATES = ['draft', 'final', 'offered', 'cancelled'] as const;
