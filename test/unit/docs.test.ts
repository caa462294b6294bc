import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is a newcomer's page and docs/ holds the rest: every link among them resolves, they cite only
 * what is in the repository, and the examples use what a fresh machine has (the default port, no uuidgen).
 */

const root = resolve(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const text = (page: string) => readFileSync(join(root, page), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (page: string) => new Set([...text(page).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1] ?? '')));

describe('README and docs', () => {
  it('keep the README a short page for a newcomer, with the three quick-start commands', () => {
    const readme = text('README.md');
    expect(readme.split('\n').length).toBeLessThan(400);
    for (const command of ['npm install', 'npm start', 'npm test']) expect(readme).toContain(command);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        const [path, hash] = target.split('#');
        const file = path ? join(dirname(page), path) : page;
        if (!existsSync(join(root, file))) broken.push(`${page} → ${target}`);
        else if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash)) broken.push(`${page} → ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('cite no document outside the repository, and use what a fresh machine has', () => {
    const found: string[] = [];
    for (const page of pages) {
      const lines = text(page).split('\n');
      lines.forEach((line, index) => {
        if (/\b(contract|spec) §/i.test(line)) found.push(`${page}:${index + 1} cites a document outside the repository`);
        if (/:8080\b/.test(line)) found.push(`${page}:${index + 1} uses port 8080 (the default is 8787)`);
        if (/\buuidgen\b/.test(line)) found.push(`${page}:${index + 1} uses uuidgen`);
      });
    }
    expect(found).toEqual([]);
  });
});
