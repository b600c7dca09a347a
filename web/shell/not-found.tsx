import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** The 404 page of spec 001 §2: the page could not be found; check the link or contact the developers. */
export function NotFoundPage() {
  return (
    <Stack align="flex-start" gap="sm">
      <Title order={2}>Pagina niet gevonden</Title>
      <Text>
        Deze pagina kon niet worden gevonden. Controleer de link of neem contact op met de ontwikkelaars.
      </Text>
      <Button component={Link} to="/" variant="light">
        Naar de startpagina
      </Button>
    </Stack>
  );
}
