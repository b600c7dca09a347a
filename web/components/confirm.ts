import { modals } from '@mantine/modals';

/** Opens the Dutch yes/no confirm dialog; runs `onConfirm` on 'Ja'. */
export function confirmAction(options: { title: string; message: string; onConfirm: () => void }): void {
  modals.openConfirmModal({
    title: options.title,
    children: options.message,
    labels: { confirm: 'Ja', cancel: 'Nee' },
    confirmProps: { color: 'red' },
    onConfirm: options.onConfirm,
  });
}
