import { Center, Loader } from '@mantine/core';
import { logout } from './features/auth/api';
import { LoginPage } from './features/auth/login-page';
import { useAccount, useSetAccount, useUnauthorizedLogout } from './shell/account';
import { lazyScreen, ScreenBoundary } from './shell/lazy-screen';

// The shell and its screens load after login: the login page needs none of them.
const LoggedInApp = lazyScreen(() => import('./shell/logged-in-app'), 'LoggedInApp');

/** Loads the account first; shows the login while it is unknown, else the shell with the routes. */
export function App() {
  useUnauthorizedLogout();
  const account = useAccount();
  const setAccount = useSetAccount();

  if (account.isPending) {
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  }
  if (!account.data) return <LoginPage />;

  const handleLogout = () => {
    void logout().finally(() => setAccount(null));
  };

  return (
    <ScreenBoundary isFullPage>
      <LoggedInApp account={account.data} onLogout={handleLogout} />
    </ScreenBoundary>
  );
}
