import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Account } from '../../common/auth';
import { accountKey, fetchAccount } from '../features/auth/api';
import { setUnauthorizedHandler } from '../lib/http';

/** The account query: loads /auth/me once; null means logged out. */
export function useAccount() {
  return useQuery({ queryKey: accountKey, queryFn: fetchAccount, retry: false, staleTime: Number.POSITIVE_INFINITY });
}

/** Makes any 401/403 answer clear the account (spec 001 §7), which shows the login screen. */
export function useUnauthorizedLogout() {
  const client = useQueryClient();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      client.setQueryData(accountKey, null);
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== accountKey[0] });
    });
  }, [client]);
}

/** Stores the account after login. */
export function useSetAccount() {
  const client = useQueryClient();
  return (account: Account | null) => {
    if (!account) client.clear();
    client.setQueryData(accountKey, account);
  };
}
