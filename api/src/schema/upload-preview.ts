// Preview before load and column-mapping profiles in GraphQL (issue 14,
// points 5 and 6), for tools: the same services as REST's /api/upload/preview
// and /api/mapping-profiles.
import fs from 'node:fs';
import type { FileUpload } from 'graphql-upload-minimal';
import { builder, runnable } from './builder.js';
import { ValidationError } from '../core/errors.js';
import * as uploads from '../services/uploads.js';
import * as preview from '../services/upload-preview.js';
import * as profiles from '../services/mapping-profiles.js';
import { SourceLayout, UploadOptionsInput, uploadOptionsOf } from './uploads.js';

const PreviewColumn = builder.objectRef<{ header: string; field: string | null; suggestion: string | null }>('PreviewColumn').implement({
  fields: (t) => ({
    header: t.exposeString('header'),
    field: t.exposeString('field', { nullable: true, description: 'The field it loads into; null: not loaded.' }),
    suggestion: t.exposeString('suggestion', { nullable: true, description: 'For a column not loaded: the field it looks like, which no column fills.' }),
  }),
});

const PreviewRow = builder.objectRef<{ row: number; values: (string | null)[] }>('PreviewRow').implement({
  fields: (t) => ({
    row: t.exposeInt('row', { description: 'Its row in the file (1-based).' }),
    values: t.stringList({ nullable: { list: false, items: true }, description: "The stored values, in the order of the preview's fields.", resolve: (r) => r.values }),
  }),
});

const MappableField = builder.objectRef<{ field: string; label: string }>('MappableField').implement({
  fields: (t) => ({ field: t.exposeString('field'), label: t.exposeString('label') }),
});

const UploadPreviewRef = builder.objectRef<preview.UploadPreview>('UploadPreview').implement({
  description: 'What loading a file would do: its layout, each column and its field, the first rows as stored, the problems found in the first rows.',
  fields: (t) => ({
    previewId: t.exposeString('previewId', { description: 'Pass to startPreviewedUpload (or previewUpload again with another mapping).' }),
    originalName: t.exposeString('originalName'),
    sizeBytes: t.exposeFloat('sizeBytes'),
    layout: t.field({ type: SourceLayout, resolve: (p) => p.layout }),
    columns: t.field({ type: [PreviewColumn], resolve: (p) => p.columns }),
    fields: t.exposeStringList('fields', { description: 'The stored fields the rows show.' }),
    rows: t.field({ type: [PreviewRow], resolve: (p) => p.rows }),
    problems: t.exposeStringList('problems'),
    warnings: t.exposeStringList('warnings', { description: 'Columns that will not be loaded, in words.' }),
    refusal: t.exposeString('refusal', { nullable: true, description: 'Why the file cannot be loaded with this mapping; null when it can.' }),
    mappableFields: t.field({ type: [MappableField], resolve: (p) => p.mappableFields }),
  }),
});

const ColumnMappingInput = builder.inputType('ColumnMappingInput', {
  fields: (t) => ({
    header: t.string({ required: true }),
    field: t.string({ description: 'The field it loads into; null leaves the column out.' }),
  }),
});

const PreviewColumnChoice = builder.objectRef<uploads.ColumnChoice>('ColumnChoice').implement({
  fields: (t) => ({ header: t.exposeString('header'), field: t.exposeString('field', { nullable: true }) }),
});

const MappingProfileRef = builder.objectRef<ReturnType<typeof profiles.profileJson>>('MappingProfile').implement({
  description: 'A saved column mapping, applied to every later file that has all of its columns.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    columns: t.field({ type: [PreviewColumnChoice], resolve: (p) => p.columns }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  mappingProfiles: t.field({
    type: [MappingProfileRef],
    description: 'Saved column-mapping profiles, by name.',
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => (await profiles.listProfiles(ctx.prisma)).map(profiles.profileJson),
  }),
}));

builder.mutationFields((t) => ({
  previewUpload: t.field({
    type: UploadPreviewRef,
    description: 'Previews a file before loading it: send the file, or the previewId of an earlier preview with another columnMapping. Nothing is loaded.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      file: t.arg({ type: 'Upload' }),
      previewId: t.arg.string(),
      columnMapping: t.arg({ type: [ColumnMappingInput] }),
    },
    resolve: async (_root, args, ctx) => {
      if (args.previewId) return preview.previewAgain(ctx.deps, args.previewId, args.columnMapping ?? undefined);
      if (!args.file) throw new ValidationError('Send the file, or the previewId of an earlier preview', 'file');
      const f = await (args.file as unknown as { promise: Promise<FileUpload> }).promise;
      const received = await uploads.receiveFile(ctx.config.uploadsDir, f.createReadStream(), f.filename);
      try {
        return await preview.createPreview(ctx.deps, received);
      } finally {
        await fs.promises.rm(received.tempPath, { force: true });
      }
    },
  }),
  startPreviewedUpload: t.prismaField({
    type: 'Upload',
    description: 'Start Upload on a preview: loads the previewed file with this column mapping (else as previewed), saving it as a profile when saveProfileAs is given.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      previewId: t.arg.string({ required: true }),
      columnMapping: t.arg({ type: [ColumnMappingInput] }),
      saveProfileAs: t.arg.string(),
      options: t.arg({ type: UploadOptionsInput }),
    },
    resolve: async (query, _root, args, ctx) => {
      const u = await preview.startPreviewed(ctx.deps, ctx.actor, args.previewId, {
        columnMapping: args.columnMapping ?? undefined,
        saveProfileAs: args.saveProfileAs ?? undefined,
        options: uploadOptionsOf(args.options),
      });
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: u.id } });
    },
  }),
  deleteMappingProfile: t.field({
    type: 'String',
    description: 'Deletes a column-mapping profile; returns its id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await profiles.deleteProfile(ctx.prisma, ctx.actor, id);
      return id;
    },
  }),
}));
