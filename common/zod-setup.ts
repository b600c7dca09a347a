import { z } from 'zod';

// Zod's own messages (wrong types, malformed bodies) in Dutch, like every message we write.
z.config(z.locales.nl());
