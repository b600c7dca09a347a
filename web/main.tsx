import '../common/zod-setup';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import { Badge, createTheme, MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/nl';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

dayjs.locale('nl');

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

const theme = createTheme({
  primaryColor: 'indigo',
  components: {
    // Labels, column names and values in badges read as typed, not upper-cased.
    Badge: Badge.extend({ styles: { root: { textTransform: 'none' } } }),
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <DatesProvider settings={{ locale: 'nl', firstDayOfWeek: 1 }}>
          <ModalsProvider labels={{ confirm: 'Ja', cancel: 'Nee' }}>
            {/* Bottom right: at the top they covered 'Log uit' and the screen's own buttons. */}
            <Notifications position="bottom-right" limit={5} />
            {/* The logged-in shell makes its own data router (web/shell/logged-in-app.tsx). */}
            <App />
          </ModalsProvider>
        </DatesProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
