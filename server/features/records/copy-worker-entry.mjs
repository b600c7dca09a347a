// Entry of a mapping worker thread: TypeScript loader first (workers do not inherit the main
// thread's), then the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./copy-worker.ts');
