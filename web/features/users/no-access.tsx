import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { UserMessages } from '../../../common/users';
import { useAccount } from '../../shell/account';

/** Whether the logged-in account is an administrator (false while it is unknown). */
export function useIsAdmin(): boolean {
  return useAccount().data?.role === 'admin';
}

/** What other staff see on an administrator's user screen: 'Geen toegang' and a way back. */
export function NoAccess() {
  return (
    <Stack align="flex-start" gap="sm">
      <Title order={2}>{UserMessages.noAccessTitle}</Title>
      <Text>{UserMessages.noAccess}</Text>
      <Button component={Link} to="/" variant="light">
        Naar de startpagina
      </Button>
    </Stack>
  );
}
