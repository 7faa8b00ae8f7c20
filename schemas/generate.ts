// Generates the JSON Schemas of what users write (schemas/*.schema.json, and
// the text `gsd-check schema` prints) from the valibot schemas that validate
// it: build.mjs runs this. The fields come from valibot; how they fit
// together (which fields a gate has, that a check has one shape, what a
// capability and render-hooks' output hold) is written here, after
// src/gates/declaration.ts and src/gates/sources.ts, which read it by hand.
import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { CHECK_SHAPES, FIELD_SCHEMAS, GATE_FIELDS } from '../src/gates/declaration.ts';
import { KINDS } from '../src/kinds/table.ts';

// Draft 07: the draft editors know best (VS Code's JSON service, JetBrains'
// IDEs and SchemaStore's catalogue all take it whole).
const DRAFT = 'http://json-schema.org/draft-07/schema#';

export const SCHEMA_NAMES = ['predicate', 'gate', 'capability', 'render-hooks'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

// A check that JSON Schema has no word for (v.check, v.custom, v.finite) must
// be followed in its pipe by `v.metadata({ jsonSchema: {...} })`, what it means
// in JSON Schema ({} when JSON cannot break it): a check without one fails
// the build rather than vanish from the schema.
function converter(): { config: ConversionConfig; done(): void } {
  let pending: string | undefined;
  const refuse = (what: string): never => {
    throw new Error(`schemas: ${what}; follow it with v.metadata({ jsonSchema: ... }) (schemas/generate.ts)`);
  };
  const config: ConversionConfig = {
    target: 'draft-07',
    typeMode: 'input',
    overrideAction({ valibotAction, jsonSchema, errors }) {
      const metadata = valibotAction.type === 'metadata' ? (valibotAction as unknown as { metadata: Record<string, unknown> }).metadata : undefined;
      if (metadata !== undefined && Object.hasOwn(metadata, 'jsonSchema')) {
        if (pending === undefined) throw new Error('schemas: a jsonSchema translation follows no check that needs one');
        pending = undefined;
        const { jsonSchema: _, ...converted } = jsonSchema as Record<string, unknown>;
        return merge(converted, metadata.jsonSchema as Record<string, unknown>) as JsonSchema;
      }
      if (pending !== undefined) refuse(`the "${pending}" check has no JSON Schema translation`);
      if (errors !== undefined) {
        pending = valibotAction.type;
        return jsonSchema;
      }
      return undefined;
    },
    overrideSchema({ valibotSchema, jsonSchema, errors }) {
      if (pending !== undefined) refuse(`the "${pending}" check has no JSON Schema translation`);
      if (errors !== undefined && valibotSchema.type === 'custom') {
        pending = 'custom';
        return jsonSchema;
      }
      return undefined;
    },
  };
  return {
    config,
    done() {
      if (pending !== undefined) refuse(`the "${pending}" check has no JSON Schema translation`);
    },
  };
}

// A keyword already said (a second pattern) goes in allOf: both hold.
function merge(schema: Record<string, unknown>, more: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...schema };
  for (const [key, value] of Object.entries(more)) {
    if (!Object.hasOwn(merged, key)) merged[key] = value;
    else merged.allOf = [...((merged.allOf as unknown[] | undefined) ?? []), { [key]: value }];
  }
  return merged;
}

// One valibot schema as JSON Schema, without the $schema that only a document's root carries.
export function toJson(schema: v.GenericSchema): Record<string, unknown> {
  const { config, done } = converter();
  const { $schema: _, ...json } = toJsonSchema(schema, config) as Record<string, unknown>;
  done();
  return json;
}

function predicateSchema(): Record<string, unknown> {
  // validatePredicate refuses a field its kind does not name.
  const kinds = [...KINDS.values()].map((kind) => v.strictObject(kind.schema.entries));
  return toJson(v.variant('kind', kinds as unknown as [v.StrictObjectSchema<{ kind: v.LiteralSchema<string, undefined> }, undefined>]));
}

function gateSchema(predicate: Record<string, unknown>): Record<string, unknown> {
  const fields = new Map<string, Record<string, unknown>>();
  for (const field of GATE_FIELDS) {
    if (field === 'check') {
      // One object with exactly one of the shapes.
      const shapes = CHECK_SHAPES.map((shape) => {
        const schema = shape === 'predicate' ? predicate : toJson(FIELD_SCHEMAS[shape as keyof typeof FIELD_SCHEMAS]);
        return { type: 'object', properties: { [shape]: schema }, required: [shape], additionalProperties: false };
      });
      fields.set(field, { type: 'object', anyOf: shapes });
    } else if (Object.hasOwn(FIELD_SCHEMAS, field)) {
      fields.set(field, toJson(FIELD_SCHEMAS[field as keyof typeof FIELD_SCHEMAS]));
    } else {
      throw new Error(`schemas: the gate field "${field}" has no schema in FIELD_SCHEMAS`);
    }
  }
  return {
    type: 'object',
    properties: Object.fromEntries(fields),
    required: GATE_FIELDS.filter((field) => field !== 'when'),
    additionalProperties: false,
    // An agent verdict is advisory: parseGate refuses `blocking: true` beside it.
    if: { type: 'object', required: ['check'], properties: { check: { type: 'object', required: ['agentVerdict'], properties: { agentVerdict: {} } } } },
    then: { properties: { blocking: { const: false } } },
  };
}

// What render-hooks' gate entries hold: a gate without its point (the
// output's own), with the capability's id; other entries are not gates.
function hooksSchema(gate: Record<string, unknown>): Record<string, unknown> {
  const { point, ...properties } = gate.properties as Record<string, unknown>;
  const entry = {
    ...gate,
    properties: { capId: { type: 'string', minLength: 1 }, kind: { const: 'gate' }, ...properties },
    required: ['capId', 'kind', ...(gate.required as string[]).filter((field) => field !== 'point')],
  };
  return {
    type: 'object',
    properties: {
      point,
      activeHooks: {
        type: 'array',
        items: { if: { type: 'object', required: ['kind'], properties: { kind: { const: 'gate' } } }, then: entry },
      },
    },
    required: ['point', 'activeHooks'],
  };
}

const TITLES: Record<SchemaName, { title: string; description: string }> = {
  predicate: { title: 'gsd-check predicate', description: 'A gate predicate, as check predicate --predicate takes it and a gate\'s check.predicate holds it.' },
  gate: { title: 'gsd-check gate declaration', description: 'One entry of a capability\'s gates.' },
  capability: {
    title: 'gsd-check capability file',
    description: 'A GSD capability file, as far as gsd-check reads it: its gates. Its other fields are GSD\'s capability format, not checked here.',
  },
  'render-hooks': {
    title: 'gsd-check render-hooks input',
    description: 'The output of gsd_run loop render-hooks <point> --raw, as gates run --hooks reads it: its gate entries.',
  },
};

// Each schema, by name; committed under schemas/ and printed by `gsd-check
// schema` as JSON indented by 2 spaces, with a newline at its end.
export function generateSchemas(): Record<SchemaName, Record<string, unknown>> {
  const predicate = predicateSchema();
  const gate = gateSchema(predicate);
  const bodies: Record<SchemaName, Record<string, unknown>> = {
    predicate,
    gate,
    capability: { type: 'object', properties: { gates: { type: 'array', items: gate } } },
    'render-hooks': hooksSchema(gate),
  };
  const schemas = {} as Record<SchemaName, Record<string, unknown>>;
  for (const name of SCHEMA_NAMES) schemas[name] = { $schema: DRAFT, $id: `urn:gsd-check:schema:${name}`, ...TITLES[name], ...bodies[name] };
  return schemas;
}
