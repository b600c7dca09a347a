import { ActionIcon, Button, Group, Menu, Tooltip } from '@mantine/core';
import { IconChevronDown, IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CSV_FORMAT_LABELS, csvDownloadUrl } from '../../common/csv-download';

/** The choice of a CSV download's two files: the comma file and 'Excel (puntkomma)' (common/csv-download.ts). */
function FormatMenu({ href, label, compact }: { href: string; label: string; compact: boolean }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant={compact ? 'subtle' : 'default'}
          size={compact ? 'sm' : 36}
          aria-label={`Kies bestandsformaat: ${label}`}
        >
          <IconChevronDown size={14} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        {CSV_FORMAT_LABELS.map(([format, name]) => (
          <Menu.Item
            key={format}
            component="a"
            href={csvDownloadUrl(href, format)}
            download
            leftSection={format === 'excel' ? <IconFileSpreadsheet size={16} /> : <IconDownload size={16} />}
          >
            {name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A CSV download: the link to the comma file (named `label`, as before) and beside it a
 * menu offering 'CSV (komma)' and 'Excel (puntkomma)'. `icon` makes the link a row's icon button
 * (with `label` as its tooltip); without it the link is a button showing `children` (else `label`).
 */
export function CsvDownload({
  href,
  label,
  icon,
  children,
}: {
  href: string;
  label: string;
  icon?: ReactNode;
  children?: ReactNode;
}) {
  if (icon) {
    return (
      <Group gap={0} wrap="nowrap">
        <Tooltip label={label}>
          <ActionIcon variant="subtle" component="a" href={href} download aria-label={label}>
            {icon}
          </ActionIcon>
        </Tooltip>
        <FormatMenu href={href} label={label} compact />
      </Group>
    );
  }
  return (
    <Group gap={2} wrap="nowrap">
      <Button
        variant="default"
        component="a"
        href={href}
        download
        aria-label={label}
        leftSection={<IconDownload size={16} />}
      >
        {children ?? label}
      </Button>
      <FormatMenu href={href} label={label} compact={false} />
    </Group>
  );
}
