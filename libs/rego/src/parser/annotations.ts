/** `# METADATA` comment blocks: YAML in the comment lines directly following the marker. */
import { parse as parseYaml } from 'yaml';
import { RegoError } from '../errors';
import type { Annotation } from '../ast/types';
import type { Comment } from './lexer';

const SCOPES = new Set(['rule', 'document', 'package', 'subpackages']);

export function parseAnnotations(comments: Comment[], file: string): Annotation[] {
  const out: Annotation[] = [];
  for (let i = 0; i < comments.length; i++) {
    const c = comments[i];
    if (c.text.trim() !== 'METADATA') continue;
    const lines: string[] = [];
    let row = c.row;
    let j = i + 1;
    while (j < comments.length && comments[j].row === row + 1) {
      lines.push(comments[j].text.startsWith(' ') ? comments[j].text.slice(1) : comments[j].text);
      row = comments[j].row;
      j++;
    }
    i = j - 1;
    const loc = { file, row: c.row, col: c.col };
    let fields: Record<string, unknown> = {};
    try {
      const y = parseYaml(lines.join('\n'));
      if (y !== null && y !== undefined) {
        if (typeof y !== 'object' || Array.isArray(y)) throw new Error('expected object');
        fields = y as Record<string, unknown>;
      }
    } catch (e) {
      throw new RegoError('rego_parse_error', `yaml: ${(e as Error).message.split('\n')[0]}`, loc);
    }
    const scope = typeof fields.scope === 'string' ? fields.scope : 'rule';
    if (!SCOPES.has(scope)) throw new RegoError('rego_parse_error', `invalid annotation scope '${scope}'`, loc);
    out.push({ scope, loc, fields });
  }
  return out;
}
