import { Alert, List } from '@mantine/core';

/** The 'Foute invoer' block of a form (spec 000 §5): one line, or a list when several rules failed. */
export function FormErrors({ messages, title = 'Foute invoer' }: { messages: string[]; title?: string }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" title={title} role="alert">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm">
          {messages.map((m) => (
            <List.Item key={m}>{m}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
