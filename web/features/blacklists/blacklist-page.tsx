import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { BlacklistMessages } from '../../../common/blacklists';
import { PageTitle } from '../../components/page-title';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { blacklistCountKey, getBlacklistCount } from './api';

/** /blacklist: how many e-mail addresses the blacklist holds, and a link to upload more (spec 001 §2). */
export function BlacklistPage() {
  const count = useQuery({ queryKey: blacklistCountKey, queryFn: getBlacklistCount });
  useFailedQueryAlert(count.error, BlacklistMessages.loadFailed);
  return (
    <>
      <PageTitle>Blacklist</PageTitle>
      <Paper withBorder p="md" maw={600}>
        <Stack>
          <Text c="dimmed">Geblackliste e-mailadressen</Text>
          <Title order={3} data-testid="blacklist-length">
            {count.data ? count.data.blacklistLength.toLocaleString('nl-NL') : '…'}
          </Title>
          <Group>
            <Button component={Link} to="/blacklist/upload" leftSection={<IconUpload size={16} />}>
              Blacklist uploaden
            </Button>
            <Button component={Link} to="/blacklist/domain" variant="default">
              Domein blacklist
            </Button>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
