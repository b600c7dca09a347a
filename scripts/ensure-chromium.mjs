// Makes sure Debian's Chromium is installed for the Playwright journeys (never a Playwright download).
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : 'sudo ';
  console.log('Chromium ontbreekt; installeren met apt-get ...');
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`,
    {
      stdio: 'inherit',
    },
  );
}
if (!fs.existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} niet gevonden na installatie`);
  process.exit(1);
}
