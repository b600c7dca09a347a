import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Account } from '../../common/auth';
import { accountKey, fetchAccount } from '../features/auth/api';
import { setUnauthorizedHandler } from '../lib/http';

/** The account query: loads /auth/me once; null means logged out. */
export function useAccount() {
  return useQuery({
    queryKey: accountKey,
    queryFn: fetchAccount,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

// Sets the account to null and drops every other cached answer. The account query must stay in
// the cache: clear() would detach the mounted observer, and the shell would never see the logout.
function clearAccount(client: QueryClient): void {
  client.setQueryData(accountKey, null);
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== accountKey[0] });
}

/** Makes any 401/403 answer clear the account (spec 001 §7), which shows the login screen. */
export function useUnauthorizedLogout() {
  const client = useQueryClient();
  useEffect(() => {
    setUnauthorizedHandler(() => clearAccount(client));
  }, [client]);
}

/** Stores the account after login, or clears it (and every cached answer) on logout. */
export function useSetAccount() {
  const client = useQueryClient();
  return (account: Account | null) => {
    if (account) client.setQueryData(accountKey, account);
    else clearAccount(client);
  };
}
