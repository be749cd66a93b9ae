import { fileURLToPath } from 'node:url';

/** Absolute path of the built panel, which the server serves under /admin/. */
export const ADMIN_PANEL_ROOT = fileURLToPath(new URL('../dist', import.meta.url));
