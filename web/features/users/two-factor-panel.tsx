import { Alert, Button, Code, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useState } from 'react';
import { AuthMessages, type TwoFactorLink } from '../../../common/auth';
import type { User } from '../../../common/users';
import { showDanger, showInfo, showSuccess } from '../../lib/alerts';
import { disableTwoFactor, enableTwoFactor } from '../auth/api';
import { userKey, usersKey } from './api';

/** 2FA management on the user edit screen: enable (QR code and secret once), disable. */
export function TwoFactorPanel({ user }: { user: User }) {
  const client = useQueryClient();
  const [enrolment, setEnrolment] = useState<(TwoFactorLink & { qr: string }) | null>(null);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: usersKey });
    void client.invalidateQueries({ queryKey: userKey(user._id) });
  };

  const enable = useMutation({
    mutationFn: async () => {
      const link = await enableTwoFactor(user._id, user.username);
      return { ...link, qr: await QRCode.toDataURL(link.link, { margin: 1, width: 220 }) };
    },
    onSuccess: (data) => {
      setEnrolment(data);
      showInfo(AuthMessages.twoFactorEnabledTitle, AuthMessages.tokenRequired);
      refresh();
    },
    onError: () => showDanger('2FA', AuthMessages.twoFactorFallback),
  });
  const disable = useMutation({
    mutationFn: () => disableTwoFactor(user._id),
    onSuccess: () => {
      setEnrolment(null);
      showSuccess('2FA uitgeschakeld');
      refresh();
    },
    onError: () => showDanger('2FA', AuthMessages.twoFactorFallback),
  });

  return (
    <Paper withBorder p="md" maw={520} mt="lg">
      <Stack>
        <Group gap="xs">
          <IconKey size={20} />
          <Title order={4}>Tweestapsverificatie (2FA)</Title>
        </Group>
        {enrolment ? (
          <Alert color="blue" title="Scan deze QR-code met een authenticator-app">
            <Stack gap="xs">
              <Image src={enrolment.qr} alt="2FA QR-code" w={220} h={220} data-testid="twofa-qr" />
              <Text size="sm">Of voer deze sleutel handmatig in:</Text>
              <Code data-testid="twofa-secret">{enrolment.secret}</Code>
            </Stack>
          </Alert>
        ) : (
          <Text size="sm">
            {user['2fa'] ? '2FA is ingeschakeld voor deze gebruiker.' : '2FA is uitgeschakeld.'}
          </Text>
        )}
        <Group>
          {!user['2fa'] || enrolment ? (
            <Button
              onClick={() => enable.mutate()}
              loading={enable.isPending}
              variant={enrolment ? 'default' : 'filled'}
            >
              {enrolment ? 'Nieuwe sleutel maken' : '2FA inschakelen'}
            </Button>
          ) : null}
          {user['2fa'] && (
            <Button color="red" variant="light" onClick={() => disable.mutate()} loading={disable.isPending}>
              2FA uitschakelen
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
