// Preview before load and column-mapping profiles in GraphQL, for tools: the
// same services as REST's /api/upload/preview and /api/mapping-profiles.
import type { FileUpload } from 'graphql-upload-minimal';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder, runnable } from '../builder.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import * as uploads from '../../services/uploads/uploads.js';
import * as preview from '../../services/uploads/upload-preview.js';
import * as profiles from '../../services/uploads/mapping-profiles.js';
import { SourceLayout, UploadOptionsInput, uploadOptionsOf } from './uploads.js';

const PreviewColumn = builder.objectRef<{ header: string; field: string | null; suggestion: string | null }>('PreviewColumn').implement({
  description: 'One column of the previewed file and what the load would do with it.',
  fields: (t) => ({
    header: t.exposeString('header', { description: 'The column heading as it is in the file (trimmed).' }),
    field: t.exposeString('field', { nullable: true, description: 'The field it loads into; null: not loaded.' }),
    suggestion: t.exposeString('suggestion', { nullable: true, description: 'For a column not loaded: the field it looks like, which no column fills.' }),
  }),
});

const PreviewRow = builder.objectRef<{ row: number; values: (string | null)[] }>('PreviewRow').implement({
  description: 'One of the first records of the file, as the load would store it.',
  fields: (t) => ({
    row: t.exposeInt('row', { description: 'Its row in the file (1-based).' }),
    values: t.stringList({
      nullable: { list: false, items: true },
      description: "The stored values, in the order of the preview's fields.",
      resolve: (r) => r.values,
    }),
  }),
});

const MappableField = builder.objectRef<{ field: string; label: string }>('MappableField').implement({
  description: 'A stored field a column can be mapped to, for the column picker.',
  fields: (t) => ({
    field: t.exposeString('field', { description: "The key to send as a column mapping's field, e.g. accessRiskId." }),
    label: t.exposeString('label', { description: 'How the field is shown to people, e.g. Access Risk ID.' }),
  }),
});

const UploadPreviewRef = builder.objectRef<preview.UploadPreview>('UploadPreview').implement({
  description: 'What loading a file would do: its layout, each column and its field, the first rows as stored, the problems found in the first rows.',
  fields: (t) => ({
    previewId: t.exposeString('previewId', { description: 'Pass to startPreviewedUpload (or previewUpload again with another mapping).' }),
    originalName: t.exposeString('originalName', { description: 'The file name as it was sent.' }),
    sizeBytes: t.exposeFloat('sizeBytes', { description: 'The size of the file received, in bytes.' }),
    layout: t.field({
      type: SourceLayout,
      description: 'How the file was read: format, sheet, header row, encoding, delimiter, decimal separator.',
      resolve: (p) => p.layout,
    }),
    columns: t.field({
      type: [PreviewColumn],
      description: 'Every column of the file, in file order, with the field it would load into.',
      resolve: (p) => p.columns,
    }),
    fields: t.exposeStringList('fields', { description: 'The stored fields the rows show.' }),
    rows: t.field({ type: [PreviewRow], description: 'The first records of the file (at most 10) as they would be stored.', resolve: (p) => p.rows }),
    problems: t.exposeStringList('problems', {
      description: 'Problems in the first records read (up to 500): a value that will not be read, or a row that would stop the load; in words.',
    }),
    warnings: t.exposeStringList('warnings', { description: 'Columns that will not be loaded, in words.' }),
    refusal: t.exposeString('refusal', { nullable: true, description: 'Why the file cannot be loaded with this mapping; null when it can.' }),
    mappableFields: t.field({
      type: [MappableField],
      description: 'Every field a column can be mapped to, for choosing another mapping.',
      resolve: (p) => p.mappableFields,
    }),
  }),
});

const ColumnMappingInput = builder.inputType('ColumnMappingInput', {
  description: 'Which field one column of the file loads into (or that it is left out).',
  fields: (t) => ({
    header: t.string({ required: true, description: "The column heading, as in the preview's columns." }),
    field: t.string({ description: 'The field it loads into; null leaves the column out.' }),
  }),
});

const PreviewColumnChoice = builder.objectRef<uploads.ColumnChoice>('ColumnChoice').implement({
  description: 'One column of a saved mapping: its heading and the field it loads into.',
  fields: (t) => ({
    header: t.exposeString('header', { description: 'The column heading it applies to.' }),
    field: t.exposeString('field', { nullable: true, description: 'The field the column loads into; null: the column is left out.' }),
  }),
});

const MappingProfileNode = builder.prismaNode('MappingProfile', {
  description: 'A saved column mapping, applied to every later file that has all of its columns.',
  id: { field: 'id', description: 'The profile’s global id, as deleteMappingProfile and node(id:) take it.' },
  // node(id:) of a profile that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name it was saved under (unique; saving under it again replaces its columns).' }),
    columns: t.field({
      type: [PreviewColumnChoice],
      description: 'The columns it maps, each with its field or left out.',
      resolve: (p) => profiles.profileJson(p).columns,
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last saved.' }),
  }),
});

const profileOrder = listOrder(
  'MappingProfile',
  'the saved column-mapping profiles',
  {
    NAME: { columns: ['name'], description: 'The profile’s name.' },
    UPDATED_AT: { columns: ['updatedAt'], description: 'When it was last saved.' },
  },
  { field: 'NAME', direction: 'asc' },
);

builder.queryFields((t) => ({
  mappingProfiles: t.prismaConnection({
    type: 'MappingProfile',
    cursor: 'id',
    description: 'Saved column-mapping profiles, by name unless `orderBy` says otherwise (administrators).',
    authScopes: { admin: true },
    args: profileOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.mappingProfile.findMany({ ...runnable(query), orderBy: profileOrder.orderBy<Prisma.MappingProfileOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.mappingProfile.count(),
  }),
}));

builder.mutationFields((t) => ({
  previewUpload: t.field({
    type: UploadPreviewRef,
    description: 'Previews a file before loading it: send the file, or the previewId of an earlier preview with another columnMapping. Nothing is loaded.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      file: t.arg({ type: 'Upload', description: 'The file to preview (CSV or Excel), as a multipart upload; not needed with previewId.' }),
      previewId: t.arg.string({ description: 'An earlier preview to show again with another mapping (kept for a day, until started).' }),
      columnMapping: t.arg({
        type: [ColumnMappingInput],
        description: 'With previewId: the mapping to preview with; left out, the saved profiles and the usual headings decide.',
      }),
      sheet: t.arg.string({ description: "With previewId: the workbook's sheet to read, by name; left out, the sheet whose header is recognisable." }),
      headerRow: t.arg.int({ description: 'With previewId: the row holding the header (1-based, as the layout numbers rows); left out, the row found.' }),
    },
    resolve: async (_root, args, ctx) => {
      if (args.previewId)
        return preview.previewAgain(ctx.caller!, args.previewId, {
          columnMapping: args.columnMapping ?? undefined,
          sheet: args.sheet,
          headerRow: args.headerRow,
        });
      if (!args.file) throw new ValidationError('Send the file, or the previewId of an earlier preview', 'file');
      const f = await (args.file as unknown as { promise: Promise<FileUpload> }).promise;
      const received = await uploads.receiveFile(ctx.deps.storage, f.createReadStream(), f.filename);
      try {
        return await preview.createPreview(ctx.caller!, received);
      } finally {
        await uploads.discardReceived(ctx.deps.storage, received);
      }
    },
  }),
  startPreviewedUpload: t.prismaField({
    type: 'Upload',
    description:
      'Start Upload on a preview: loads the previewed file with this column mapping (else as previewed), saving it as a profile when saveProfileAs is given.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      previewId: t.arg.string({ required: true, description: 'The preview to load, as previewUpload answered it.' }),
      columnMapping: t.arg({ type: [ColumnMappingInput], description: 'The confirmed mapping; left out, the file loads as it was previewed.' }),
      saveProfileAs: t.arg.string({ description: 'A name to save the mapping under as a profile (in the same transaction); one of that name is replaced.' }),
      sheet: t.arg.string({ description: "The workbook's sheet to load, by name; left out, the one the preview found." }),
      headerRow: t.arg.int({ description: 'The row holding the header (1-based, as the layout numbers rows); left out, the one the preview found.' }),
      options: t.arg({ type: UploadOptionsInput, description: 'How to load: append or replace, duplicates, batch size, e-mail when done.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const u = await preview.startPreviewed(ctx.caller!, args.previewId, {
        columnMapping: args.columnMapping ?? undefined,
        saveProfileAs: args.saveProfileAs ?? undefined,
        sheet: args.sheet,
        headerRow: args.headerRow,
        options: uploadOptionsOf(args.options),
      });
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: u.id } });
    },
  }),
  deleteMappingProfile: t.field({
    type: 'String',
    description: 'Deletes a column-mapping profile; returns its global id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: MappingProfileNode, description: "The profile's global id (MappingProfile.id)." }) },
    resolve: async (_root, { id }, ctx) => {
      await profiles.deleteProfile(ctx.caller!, id.id);
      return encodeGlobalID('MappingProfile', id.id);
    },
  }),
}));
