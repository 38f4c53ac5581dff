/**
 * Every regular expression written in the sources: `/…/flags` literals and
 * `new RegExp('…', '…')` / `RegExp('…')` calls with string-literal arguments,
 * found by parsing each file with the TypeScript compiler (not by grepping,
 * which cannot tell a regex from a division or a comment).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface RegexSite {
  file: string;
  line: number;
  source: string;
  flags: string;
  /** a `new RegExp` whose pattern is not a literal: cannot be checked statically */
  dynamic?: boolean;
}

function sourceFiles(dir: string, skip: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (skip(path)) continue;
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, skip));
    else if (/\.(?:ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

export function regexSites(root: string, dirs: string[], skip: (path: string) => boolean = () => false): RegexSite[] {
  const sites: RegexSite[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, dir), skip)) {
      const text = readFileSync(file, 'utf8');
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const rel = relative(root, file);
      const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const visit = (node: ts.Node) => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const lit = node.getText(sf);
          const end = lit.lastIndexOf('/');
          sites.push({ file: rel, line: lineOf(node), source: lit.slice(1, end), flags: lit.slice(end + 1) });
        } else if (
          (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'RegExp' &&
          node.arguments?.length
        ) {
          const source = stringValue(node.arguments[0]);
          const flags = node.arguments[1] ? stringValue(node.arguments[1]) : '';
          if (source !== undefined && flags !== undefined) sites.push({ file: rel, line: lineOf(node), source, flags });
          else
            sites.push({
              file: rel,
              line: lineOf(node),
              source: node.arguments[0]!.getText(sf),
              flags: '',
              dynamic: true,
            });
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }
  return sites;
}
