import { Alert, Button, Code, Group, Image, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { type FormEvent, useState } from 'react';
import { AuthMessages, type TwoFactorLink } from '../../../common/auth';
import { TOKEN_LENGTH } from '../../../common/constants';
import type { User } from '../../../common/users';
import { confirmAction } from '../../components/confirm';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { confirmTwoFactor, disableTwoFactor, enableTwoFactor } from '../auth/api';
import { userKey, usersKey } from './api';

/**
 * 2FA management on the user edit screen: enabling shows the QR code and secret once and turns 2FA
 * on only when the first code is confirmed; disabling asks first.
 */
export function TwoFactorPanel({ user }: { user: User }) {
  const client = useQueryClient();
  const [enrolment, setEnrolment] = useState<(TwoFactorLink & { qr: string }) | null>(null);
  const [token, setToken] = useState('');
  const [isTokenRejected, setIsTokenRejected] = useState(false);
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
      setToken('');
      setIsTokenRejected(false);
    },
    onError: () => showDanger('2FA', AuthMessages.twoFactorFallback),
  });
  const confirm = useMutation({
    mutationFn: () => confirmTwoFactor(user._id, token),
    onSuccess: () => {
      setEnrolment(null);
      setToken('');
      showSuccess(AuthMessages.twoFactorConfirmed);
      refresh();
    },
    onError: (error) => {
      // A wrong code is a 400 and leaves the enrolment open for another try (a 403 would log out).
      if (error instanceof ApiError && error.status === 400) {
        setIsTokenRejected(true);
        showDanger(AuthMessages.tokenInvalidTitle, AuthMessages.tokenInvalid);
      } else showDanger('2FA', error);
    },
  });
  const disable = useMutation({
    mutationFn: () => disableTwoFactor(user._id),
    onSuccess: () => {
      setEnrolment(null);
      showSuccess(AuthMessages.twoFactorDisabled);
      refresh();
    },
    onError: () => showDanger('2FA', AuthMessages.twoFactorFallback),
  });
  const submitToken = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  const askDisable = () =>
    confirmAction({
      title: '2FA uitschakelen',
      message: `Weet u zeker dat u 2FA voor ${user.username} wilt uitschakelen?`,
      onConfirm: () => disable.mutate(),
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
              <form onSubmit={submitToken}>
                <Group align="flex-end">
                  <TextInput
                    label="Code"
                    description={AuthMessages.twoFactorConfirmHint}
                    value={token}
                    onChange={(e) => {
                      setToken(e.currentTarget.value);
                      setIsTokenRejected(false);
                    }}
                    error={isTokenRejected ? AuthMessages.tokenInvalid : undefined}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={TOKEN_LENGTH}
                    required
                  />
                  <Button type="submit" loading={confirm.isPending}>
                    Bevestigen
                  </Button>
                </Group>
              </form>
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
          {user['2fa'] && !enrolment && (
            <Button color="red" variant="light" onClick={askDisable} loading={disable.isPending}>
              2FA uitschakelen
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
