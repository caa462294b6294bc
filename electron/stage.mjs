// Stages the desktop app for electron-builder in release/app: the built main process, preload and UI, the
// SQL migrations, and a package.json with the production dependencies only (no tsx, no dev tools).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const stage = 'release/app';
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
cpSync('dist/electron', `${stage}/dist/electron`, { recursive: true });
cpSync('dist/renderer', `${stage}/dist/renderer`, { recursive: true });
cpSync('engine/store/migrations', `${stage}/engine/store/migrations`, { recursive: true });
const runtime = Object.fromEntries(Object.entries(root.dependencies).filter(([name]) => !['tsx'].includes(name)));
writeFileSync(
  `${stage}/package.json`,
  `${JSON.stringify({ name: root.name, version: root.version, description: root.description, type: 'module', main: 'dist/electron/main.mjs', license: root.license, dependencies: runtime, allowScripts: root.allowScripts }, null, 2)}\n`,
);
execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: stage, stdio: 'inherit' });
console.log(`staged ${stage}`);
