/** The administrator the e2e server is started with. */
export const E2E_ADMIN = { username: 'admin', password: 'Welkom123', name: 'admin' } as const;
