import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { PAGINATOR_BUTTONS } from '../../common/constants';
import { pageWindow } from '../lib/pagination';

interface PaginatorProps {
  page: number;
  total: number;
  onChange: (page: number) => void;
}

/** Page buttons (5 by default) with previous and next; hidden when there is one page. */
export function Paginator({ page, total, onChange }: PaginatorProps) {
  if (total <= 1) return null;
  return (
    <Group gap={4} justify="center" mt="md" aria-label="Paginering">
      <Button
        size="xs"
        variant="default"
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
        aria-label="Vorige"
      >
        <IconChevronLeft size={14} />
      </Button>
      {pageWindow(page, total, PAGINATOR_BUTTONS).map((p) => (
        <Button
          key={p}
          size="xs"
          variant={p === page ? 'filled' : 'default'}
          onClick={() => onChange(p)}
          aria-current={p === page ? 'page' : undefined}
        >
          {p}
        </Button>
      ))}
      <Button
        size="xs"
        variant="default"
        disabled={page >= total}
        onClick={() => onChange(page + 1)}
        aria-label="Volgende"
      >
        <IconChevronRight size={14} />
      </Button>
    </Group>
  );
}
