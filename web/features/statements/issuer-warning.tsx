import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IssuerMessages, isIssuerComplete } from '../../../common/issuer';
import { getIssuer, issuerKey } from '../settings/api';

/**
 * The warning of the statements screen while the settings lack the issuer's name or address (a
 * statement issued then says 'Gegevens van de afnemer zijn niet ingesteld'), with a link to the
 * settings; nothing while they load or when they are set.
 */
export function IssuerWarning() {
  const issuer = useQuery({ queryKey: issuerKey, queryFn: getIssuer });
  if (!issuer.data || isIssuerComplete(issuer.data)) return null;
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={IssuerMessages.missing}
      mb="md"
      data-testid="issuer-missing"
    >
      {IssuerMessages.missingDetail}{' '}
      <Anchor component={Link} to="/settings">
        Naar Instellingen
      </Anchor>
    </Alert>
  );
}
