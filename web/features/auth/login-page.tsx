import { Button, Center, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { AuthMessages } from '../../../common/auth';
import { TOKEN_LENGTH } from '../../../common/constants';
import { showDanger, showInfo } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { useSetAccount } from '../../shell/account';
import { login } from './api';

/** 'Inloggen' (spec 001 §2 Login): username and password, then the 2fa token with 'Terug'. */
export function LoginPage() {
  const setAccount = useSetAccount();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [needsToken, setNeedsToken] = useState(false);
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);

  function reset() {
    setUsername('');
    setPassword('');
    setToken('');
    setNeedsToken(false);
  }

  async function submit(tokenValue?: string) {
    if (submitting.current) return;
    submitting.current = true;
    setBusy(true);
    try {
      const account = await login({
        username,
        password,
        token: needsToken ? (tokenValue ?? token) : undefined,
      });
      setAccount(account);
    } catch (err) {
      if (err instanceof ApiError && err.status === 206) {
        setNeedsToken(true);
        showInfo(AuthMessages.twoFactorEnabledTitle, AuthMessages.tokenRequired);
      } else if (err instanceof ApiError && err.status === 403) {
        setToken('');
        showDanger(AuthMessages.tokenInvalidTitle, AuthMessages.tokenInvalid);
      } else {
        showDanger(AuthMessages.loginFailedTitle, err);
      }
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <Title order={2}>Inloggen</Title>
            {!needsToken ? (
              <>
                <TextInput
                  label="Gebruikersnaam"
                  autoComplete="username"
                  required
                  value={username}
                  onChange={(e) => setUsername(e.currentTarget.value)}
                  autoFocus
                />
                <PasswordInput
                  label="Wachtwoord"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <Button type="submit" loading={busy}>
                  Inloggen
                </Button>
              </>
            ) : (
              <>
                <TextInput
                  label="Token"
                  description="De 6 cijfers uit uw authenticator-app"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  maxLength={TOKEN_LENGTH}
                  value={token}
                  autoFocus
                  onChange={(e) => {
                    const value = e.currentTarget.value.replace(/\s/g, '');
                    setToken(value);
                    // spec 001 §4: a 6-character token submits automatically.
                    if (value.length === TOKEN_LENGTH) void submit(value);
                  }}
                />
                <Group grow>
                  <Button variant="default" onClick={reset} type="button">
                    Terug
                  </Button>
                  <Button type="submit" loading={busy}>
                    Inloggen
                  </Button>
                </Group>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
