/**
 * Compiled execution of the plain query documents the JSON fast path serves (issue 36): each cached document is
 * looked at once, and when every selection in it is a plain field (no fragment, no directive, no abstract type, no
 * introspection field, no response name given twice) it becomes a plan of fields with their definitions, resolvers,
 * types and serializers found once. Running a plan calls the very resolvers the executor calls (Pothos's wrapped
 * ones: scope-auth, Prisma, dataloaders), with the same arguments, context and resolve info (path included), the
 * type-level read check in each object type's `isTypeOf`, and each leaf type's `serialize`; arguments are coerced
 * once per field per request, not once per row.
 *
 * Only the ordinary answer is produced here: the first thing that is not (a resolver that throws or returns an
 * error, a null where the type says non-null, an `isTypeOf` that refuses or throws, a value a serializer refuses,
 * variables that do not coerce, a list that is not an array) abandons the plan, and the operation is executed again
 * by the ordinary executor, whose answer, errors and masking included, is the one sent. Queries read only, so running
 * one twice changes nothing but the time it took.
 */
import {
  type DocumentNode,
  defaultFieldResolver,
  type FieldNode,
  getArgumentValues,
  getNullableType,
  getVariableValues,
  type GraphQLField,
  type GraphQLLeafType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isLeafType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** One field of a selection set, with all that does not depend on the request found once. */
interface FieldPlan {
  responseName: string;
  fieldName: string;
  node: FieldNode;
  fieldNodes: readonly FieldNode[];
  /** undefined for `__typename` */
  field: GraphQLField<unknown, unknown> | undefined;
  resolve: GraphQLField<unknown, unknown>['resolve'];
  returnType: GraphQLOutputType;
  parentType: GraphQLObjectType;
  /** the arguments when they are all literals (the same for every request), else null: coerced per request */
  constantArgs: Record<string, unknown> | null;
  completion: Completion;
}

type Completion =
  | { kind: 'leaf'; nonNull: boolean; type: GraphQLLeafType }
  | { kind: 'object'; nonNull: boolean; type: GraphQLObjectType; fields: FieldPlan[] }
  | { kind: 'list'; nonNull: boolean; item: Completion };

export interface CompiledPlan {
  operation: OperationDefinitionNode;
  rootType: GraphQLObjectType;
  fields: FieldPlan[];
}

/** Thrown inside a run: the plan is abandoned and the ordinary executor answers. */
const ABANDON = Symbol('abandon compiled plan');

function abandon(): never {
  throw ABANDON;
}

function completionFor(schema: GraphQLSchema, type: GraphQLOutputType, node: FieldNode): Completion | null {
  const nonNull = type instanceof GraphQLNonNull;
  const nullable = getNullableType(type);
  if (nullable instanceof GraphQLList) {
    const item = completionFor(schema, nullable.ofType, node);
    return item && { kind: 'list', nonNull, item };
  }
  if (isLeafType(nullable)) return node.selectionSet ? null : { kind: 'leaf', nonNull, type: nullable };
  if (nullable instanceof GraphQLObjectType && node.selectionSet) {
    const fields = planSelection(schema, nullable, node.selectionSet);
    return fields && { kind: 'object', nonNull, type: nullable, fields };
  }
  return null; // an interface or union: the executor resolves its type
}

function planSelection(
  schema: GraphQLSchema,
  parentType: GraphQLObjectType,
  set: SelectionSetNode,
): FieldPlan[] | null {
  const plans: FieldPlan[] = [];
  const names = new Set<string>();
  const fields = parentType.getFields();
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    const responseName = selection.alias?.value ?? selection.name.value;
    if (names.has(responseName)) return null;
    names.add(responseName);
    const fieldName = selection.name.value;
    if (fieldName === '__typename') {
      if (selection.selectionSet || selection.arguments?.length) return null;
      plans.push({
        responseName,
        fieldName,
        node: selection,
        fieldNodes: [selection],
        field: undefined,
        resolve: undefined,
        returnType: new GraphQLNonNull(schema.getType('String') as GraphQLLeafType),
        parentType,
        constantArgs: {},
        completion: { kind: 'leaf', nonNull: true, type: schema.getType('String') as GraphQLLeafType },
      });
      continue;
    }
    const field = fields[fieldName];
    if (!field || fieldName.startsWith('__')) return null;
    const completion = completionFor(schema, field.type, selection);
    if (!completion) return null;
    const literal = (selection.arguments ?? []).every((arg) => !containsVariable(arg.value));
    plans.push({
      responseName,
      fieldName,
      node: selection,
      fieldNodes: [selection],
      field,
      resolve: field.resolve,
      returnType: field.type,
      parentType,
      constantArgs: literal ? tryArgs(field, selection) : null,
      completion,
    });
  }
  return plans;
}

function containsVariable(value: import('graphql').ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(containsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((f) => containsVariable(f.value));
  return false;
}

/** Literal arguments coerced once; null (coerce per request, where an error abandons the plan) when they fail. */
function tryArgs(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> | null {
  try {
    return getArgumentValues(field, node, {});
  } catch {
    return null;
  }
}

/** The plan of a query document's operation, or null when some part of it is not plain (the executor runs it). */
export function compilePlan(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): CompiledPlan | null {
  if (document.definitions.length !== 1 || operation.operation !== 'query' || operation.directives?.length) return null;
  const rootType = schema.getQueryType();
  if (!rootType) return null;
  const fields = planSelection(schema, rootType, operation.selectionSet);
  return fields && { operation, rootType, fields };
}

interface Run {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  context: unknown;
  variables: Record<string, unknown>;
  /** per field node, its arguments coerced for this request */
  args: Map<FieldPlan, Record<string, unknown>>;
}

type Path = GraphQLResolveInfo['path'];

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function argsOf(run: Run, plan: FieldPlan): Record<string, unknown> {
  if (plan.constantArgs) return plan.constantArgs;
  let args = run.args.get(plan);
  if (!args) {
    try {
      args = getArgumentValues(plan.field!, plan.node, run.variables);
    } catch {
      abandon();
    }
    run.args.set(plan, args);
  }
  return args;
}

function infoFor(run: Run, plan: FieldPlan, path: Path): GraphQLResolveInfo {
  return {
    fieldName: plan.fieldName,
    fieldNodes: plan.fieldNodes,
    returnType: plan.returnType,
    parentType: plan.parentType,
    path,
    schema: run.schema,
    fragments: {},
    rootValue: undefined,
    operation: run.operation,
    variableValues: run.variables,
  };
}

/** An object's fields: a plain object in selection order, or a promise of it when some field is not ready. */
function executeFields(run: Run, fields: FieldPlan[], source: unknown, path: Path | undefined): unknown {
  const result: Record<string, unknown> = {};
  let pending: Promise<unknown>[] | null = null;
  for (const plan of fields) {
    const fieldPath: Path = { prev: path, key: plan.responseName, typename: plan.parentType.name };
    let value: unknown;
    if (plan.field === undefined) value = plan.parentType.name;
    else {
      const info = infoFor(run, plan, fieldPath);
      let resolved: unknown;
      try {
        resolved = (plan.resolve ?? defaultFieldResolver)(source, argsOf(run, plan), run.context, info);
      } catch {
        abandon();
      }
      value = isPromiseLike(resolved)
        ? Promise.resolve(resolved).then(
            (v) => complete(run, plan.completion, v, fieldPath, info),
            () => abandon(),
          )
        : complete(run, plan.completion, resolved, fieldPath, info);
    }
    result[plan.responseName] = value;
    if (isPromiseLike(value))
      (pending ??= []).push(
        Promise.resolve(value).then((v) => {
          result[plan.responseName] = v;
        }),
      );
  }
  return pending ? Promise.all(pending).then(() => result) : result;
}

function complete(run: Run, how: Completion, value: unknown, path: Path, info: GraphQLResolveInfo): unknown {
  if (value instanceof Error) abandon();
  if (value === null || value === undefined) return how.nonNull ? abandon() : null;
  if (how.kind === 'leaf') {
    let serialized: unknown;
    try {
      serialized = how.type.serialize(value);
    } catch {
      abandon();
    }
    return serialized === null || serialized === undefined ? abandon() : serialized;
  }
  if (how.kind === 'list') {
    if (!Array.isArray(value)) abandon();
    const items: unknown[] = new Array(value.length);
    let pending: Promise<unknown>[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const itemPath: Path = { prev: path, key: i, typename: undefined };
      const raw: unknown = value[i];
      const item = isPromiseLike(raw)
        ? Promise.resolve(raw).then((v) => complete(run, how.item, v, itemPath, info), abandon)
        : complete(run, how.item, raw, itemPath, info);
      items[i] = item;
      if (isPromiseLike(item))
        (pending ??= []).push(
          Promise.resolve(item).then((v) => {
            items[i] = v;
          }),
        );
    }
    return pending ? Promise.all(pending).then(() => items) : items;
  }
  const isTypeOf = how.type.isTypeOf;
  if (isTypeOf) {
    let accepted: unknown;
    try {
      accepted = isTypeOf(value, run.context, info);
    } catch {
      abandon();
    }
    if (isPromiseLike(accepted))
      return Promise.resolve(accepted).then(
        (ok) => (ok ? executeFields(run, how.fields, value, path) : abandon()),
        () => abandon(),
      );
    if (!accepted) abandon();
  }
  return executeFields(run, how.fields, value, path);
}

/**
 * Runs a plan: `{ data }` as the executor would answer it, or null when the plan was abandoned (the executor then
 * answers the operation).
 */
export async function runPlan(
  schema: GraphQLSchema,
  plan: CompiledPlan,
  context: unknown,
  rawVariables: Record<string, unknown> | null | undefined,
): Promise<{ data: Record<string, unknown> } | null> {
  const coerced = getVariableValues(schema, plan.operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors) return null;
  const run: Run = { schema, operation: plan.operation, context, variables: coerced.coerced, args: new Map() };
  try {
    const data = executeFields(run, plan.fields, undefined, undefined);
    return { data: (isPromiseLike(data) ? await data : data) as Record<string, unknown> };
  } catch (error) {
    if (error === ABANDON) return null;
    throw error;
  }
}
