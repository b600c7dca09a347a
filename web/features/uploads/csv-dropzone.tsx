import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileTypeCsv, IconUpload, IconX } from '@tabler/icons-react';
import Papa from 'papaparse';
import { useEffect, useState } from 'react';
import { hasEmailColumn, ImportMessages, isCsvName, UploadMessages } from '../../../common/imports';
import { showDanger } from '../../lib/alerts';
import { formatFileSize } from '../../lib/numbers';

const ACCEPT = { 'text/csv': ['.csv'], 'application/vnd.ms-excel': ['.csv'] };

/** The header row of a CSV file, read in the browser (papaparse, first row only); null while reading. */
export function useCsvHeaders(file: File | null): string[] | null {
  const [headers, setHeaders] = useState<string[] | null>(null);
  useEffect(() => {
    setHeaders(null);
    if (!file) return;
    let live = true;
    Papa.parse<string[]>(file, {
      preview: 1,
      skipEmptyLines: true,
      delimitersToGuess: [',', ';', '\t', '|'],
      complete: (result) =>
        live && setHeaders((result.data[0] ?? []).map((h) => h.replace(/^\uFEFF/, '').trim())),
      error: () => live && setHeaders([]),
    });
    return () => {
      live = false;
    };
  }, [file]);
  return headers;
}

/**
 * The number of data rows of a CSV file (blank lines and the header row not counted), read in the
 * browser in chunks so a large file is never held whole; 0 when the file cannot be read.
 */
export function countCsvRows(file: File): Promise<number> {
  return new Promise((resolve) => {
    let rows = 0;
    Papa.parse<string[]>(file, {
      skipEmptyLines: 'greedy',
      delimitersToGuess: [',', ';', '\t', '|'],
      chunk: (result) => {
        rows += result.data.length;
      },
      complete: () => resolve(Math.max(rows - 1, 0)),
      error: () => resolve(0),
    });
  });
}

/** spec 001 §8: the alert for a CSV file whose header row cannot be read. */
export const CSV_PARSE_FAILED = 'Failed to parse CSV';

/**
 * For a screen that needs a chosen file's columns (an enrichment file, a selection's line file):
 * shows CSV_PARSE_FAILED when the file's header row cannot be read (useCsvHeaders gave none).
 */
export function useCsvParseFailedAlert(file: File | null, headers: string[] | null): void {
  useEffect(() => {
    if (file && headers && headers.length === 0) showDanger(CSV_PARSE_FAILED);
  }, [file, headers]);
}

/**
 * A single-file .csv drop zone (spec 000 §5), the one every upload screen uses: more than one file
 * at once, or anything but a .csv, is refused with a message and nothing is taken. Shows the chosen
 * file with its size and columns and, when `emailColumn` is given, warns when that column is
 * missing. A page that needs the columns itself (to keep its upload button off) passes `headers`
 * from its own useCsvHeaders, so the file is read once.
 */
export function CsvDropzone(props: {
  file: File | null;
  onFile: (file: File | null) => void;
  /** The e-mail column the file must hold; omit for files without one (a selection's line file). */
  emailColumn?: string;
  /** The chosen file's columns when the page reads them (useCsvHeaders); read here when omitted. */
  headers?: string[] | null;
  disabled?: boolean;
}) {
  const ownHeaders = useCsvHeaders(props.headers === undefined ? props.file : null);
  const headers = props.headers === undefined ? ownHeaders : props.headers;
  const refuse = (message: string) => showDanger(UploadMessages.refusedTitle, message);

  // Decided on everything dropped at once: react-dropzone takes one .csv out of a mixed drop
  // (a .csv and a .txt) and refuses only the rest, which would hide that two files were dropped.
  const handleDropAny = (files: File[], rejections: FileRejection[]) => {
    const dropped = [...files, ...rejections.map((r) => r.file)];
    if (dropped.length > 1) return refuse(UploadMessages.oneFile);
    const [file] = dropped;
    if (!file) return;
    if (rejections.length > 0 || !isCsvName(file.name)) return refuse(ImportMessages.onlyCsv);
    props.onFile(file);
  };

  if (props.file) {
    return (
      <Stack gap="xs" data-testid="chosen-file">
        <Group justify="space-between">
          <Group gap="xs">
            <IconFileTypeCsv size={28} />
            <div>
              <Text fw={600}>{props.file.name}</Text>
              <Text size="xs" c="dimmed">
                {formatFileSize(props.file.size)}
              </Text>
            </div>
          </Group>
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconX size={16} />}
            onClick={() => props.onFile(null)}
            disabled={props.disabled}
          >
            Ander bestand
          </Button>
        </Group>
        {headers && headers.length > 0 && (
          <Group gap={4} aria-label="Kolommen in het bestand">
            {[...new Set(headers)].map((h) => (
              <Badge
                key={h}
                variant="light"
                color={h.toLowerCase() === props.emailColumn?.toLowerCase() ? 'green' : 'gray'}
              >
                {h || '(leeg)'}
              </Badge>
            ))}
          </Group>
        )}
        {headers && props.emailColumn !== undefined && !hasEmailColumn(headers, props.emailColumn) && (
          <Alert color="yellow" title="Let op">
            {ImportMessages.noEmailColumn(props.emailColumn)}
          </Alert>
        )}
      </Stack>
    );
  }

  return (
    <Dropzone
      onDropAny={handleDropAny}
      // Handled by onDropAny, which sees the accepted and the refused files of one drop together.
      onDrop={() => {}}
      accept={ACCEPT}
      maxFiles={1}
      multiple={false}
      disabled={props.disabled}
      aria-label="CSV-bestand"
    >
      <Group justify="center" gap="xl" mih={140} style={{ pointerEvents: 'none' }}>
        <Dropzone.Accept>
          <IconUpload size={48} />
        </Dropzone.Accept>
        <Dropzone.Reject>
          <IconX size={48} />
        </Dropzone.Reject>
        <Dropzone.Idle>
          <IconFileTypeCsv size={48} />
        </Dropzone.Idle>
        <div>
          <Text size="lg">Sleep een CSV-bestand hierheen of klik om er een te kiezen</Text>
          <Text size="sm" c="dimmed" mt={6}>
            Eén .csv-bestand; de eerste regel bevat de kolomnamen.
          </Text>
        </div>
      </Group>
    </Dropzone>
  );
}
