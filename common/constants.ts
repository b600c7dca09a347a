// Business constants of spec 000 §9 and spec 001 §9, in one place for server and web.

/** Web app version shown in the sidebar (spec 001 §1). */
export const WEB_VERSION = '1.5.0';
/** The number of rows a list page shows (the shared list view and the mailing list). */
export const LIST_PAGE_SIZE = 10;
/** The number of page buttons the paginator of a list shows at once. */
export const PAGINATOR_BUTTONS = 5;
/** The longest search term a list search box and the search routes accept. */
export const SEARCH_MAX_LENGTH = 100;
/** The longest search term the search box of the task list accepts. */
export const TASK_SEARCH_MAX_LENGTH = 50;
/** The default interval, in milliseconds, at which a task is polled (spec 000 §9); the screens poll at the more specific intervals below. */
export const TASK_POLL_MS = 5000;
/** The interval, in milliseconds, at which an upload or remap task is polled (spec 001 §7). */
export const UPLOAD_TASK_POLL_MS = 2000;
/** The interval, in milliseconds, at which the selection builder polls its save task. */
export const SELECTION_TASK_POLL_MS = 2000;
/** The interval, in milliseconds, at which the task list and the DNS check refresh their tasks. */
export const TASK_LIST_POLL_MS = 1000;
/** The interval, in milliseconds, at which the sidebar asks for the connector status. */
export const CONNECTOR_POLL_MS = 2000;
/** The pause, in milliseconds, after typing before an autocomplete asks for suggestions. */
export const AUTOCOMPLETE_DELAY_MS = 500;
/** The number of campaigns one page of the campaign list fetches. */
export const CAMPAIGN_PAGE_SIZE = 20;
/** The number of days back the campaign day filter looks when none is given (spec 001 §9). */
export const CAMPAIGN_DAYS_DEFAULT = 30;
/** The number of digits of a two-factor (2fa) token. */
export const TOKEN_LENGTH = 6;
/** The shortest password a user can be given. */
export const PASSWORD_MIN_LENGTH = 8;
/** The longest password the login accepts, and so the longest one a user can be given. */
export const PASSWORD_MAX_LENGTH = 1000;
/** The longest username (login and user forms). */
export const USERNAME_MAX_LENGTH = 200;
/** The length, in characters, a template's description is cut to in the template picker (spec 001 §9). */
export const TEMPLATE_DESCRIPTION_MAX = 65;
/** The number of interest types one page of the interest type list fetches. */
export const INTEREST_TYPE_PAGE_SIZE = 10;
/** The country code a new partner starts with. */
export const DEFAULT_COUNTRY = 'NL';
/** The gender a new test person starts with. */
export const DEFAULT_GENDER = 'M';
/** The postcode parts (pc1 to pc6) the mapping editor adds beside a postcode column. */
export const POSTCODE_COMPANIONS = ['pc1', 'pc2', 'pc3', 'pc4', 'pc6'] as const;
/** spec 001 §4: the mailing states (Concept, Definitief, Aangeboden, Geannuleerd). */
export const MAILING_STATES = ['draft', 'final', 'offered', 'cancelled'] as const;
