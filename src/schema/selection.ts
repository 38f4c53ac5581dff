/** What a field's selection asks for, read from the document (fragments and inline fragments included). */
import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/**
 * Whether any of `names` is selected directly under this field, through any fragment. Conservative: a field under
 * `@include`/`@skip` counts as selected whatever the condition, so `false` means it is never resolved.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, names: string[]): boolean {
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((selection) => {
      if (selection.kind === 'Field') return names.includes(selection.name.value);
      if (selection.kind === 'InlineFragment') return visit(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return false;
      seen.add(name);
      return visit(info.fragments[name]?.selectionSet);
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}
