import { encodeGlobalID } from '@pothos/plugin-relay';
// Uploads in GraphQL: the node, the history, uploading (GraphQL multipart
// request spec, streamed by graphql-upload-minimal), retry, live progress.
import type { FileUpload } from 'graphql-upload-minimal';
import { GraphQLError } from 'graphql';
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import * as uploads from '../../services/uploads/uploads.js';

builder.scalarType('Upload', {
  description: 'A file sent as a GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec).',
  serialize: () => {
    throw new GraphQLError('Upload is an input-only scalar');
  },
  parseValue: (v) => v as { promise: Promise<FileUpload> },
});

export const UploadStatusEnum = enumOf('UploadStatus', { values: ['processing', 'completed', 'failed'] as const });
export const UploadModeEnum = enumOf('UploadMode', { values: ['append', 'replace'] as const });

// 'Upload' is the multipart spec's scalar, so the model is exposed as DataUpload.
export const UploadNode = builder.prismaNode('Upload', {
  name: 'DataUpload',
  id: { field: 'id' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    originalName: t.exposeString('originalName'),
    sizeBytes: t.float({ resolve: (u) => Number(u.sizeBytes) }),
    status: t.expose('status', { type: UploadStatusEnum }),
    mode: t.expose('mode', { type: UploadModeEnum }),
    skipDuplicates: t.exposeBoolean('skipDuplicates'),
    batchSize: t.exposeInt('batchSize'),
    emailNotification: t.exposeBoolean('emailNotification'),
    recordCount: t.exposeInt('recordCount'),
    rowsProcessed: t.exposeInt('rowsProcessed'),
    bytesProcessed: t.float({ resolve: (u) => Number(u.bytesProcessed) }),
    duplicatesSkipped: t.exposeInt('duplicatesSkipped'),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    columnMapping: t.field({
      type: [ColumnMapping],
      description: 'Source header and the field it was mapped to.',
      resolve: (u) => Object.entries((u.columnMapping ?? {}) as Record<string, string>).map(([header, field]) => ({ header, field })),
    }),
    unknownColumns: t.exposeStringList('unknownColumns'),
    statusLabel: t.string({
      description: "The status as shown: Processing, Completed, 'Completed with warnings' (see warnings) or Failed.",
      select: { status: true, warnings: true },
      resolve: (u) => uploads.statusLabel(u),
    }),
    warnings: t.exposeStringList('warnings', {
      description: 'What the load has to tell: each source column not loaded (and what it looks like), each value not read (row and column).',
    }),
    sourceLayout: t.field({
      type: SourceLayout,
      nullable: true,
      description: 'The layout found in the file: format, sheet, header row, encoding, delimiter, decimal separator.',
      select: { sourceLayout: true },
      resolve: (u) => (u.sourceLayout ?? null) as SourceLayoutShape | null,
    }),
    live: t.exposeBoolean('live', { description: 'Whether its rows are part of the current data.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    uploadedBy: t.relation('uploadedBy', { nullable: true }),
  }),
});

const SourceFormatEnum = enumOf('SourceFormat', {
  description: 'The kind of file a load read.',
  values: {
    CSV: { description: 'Comma-separated (or semicolon, tab, pipe) text.' },
    XLSX: { description: 'An Excel workbook (Office Open XML).' },
    XLS: { description: 'A legacy Excel workbook (BIFF).' },
  },
});

type SourceLayoutShape = {
  format: 'CSV' | 'XLSX' | 'XLS';
  encoding?: string;
  delimiter?: string;
  sheet?: string;
  sheets?: string[];
  headerRow: number;
  decimalSeparator: string;
  profile?: string;
};

export const SourceLayout = builder.objectRef<SourceLayoutShape>('SourceLayout').implement({
  fields: (t) => ({
    format: t.expose('format', { type: SourceFormatEnum, description: 'The kind of file.' }),
    encoding: t.string({ nullable: true, description: 'CSV: UTF-8, UTF-8 with BOM, UTF-16 LE, UTF-16 BE or Windows-1252.', resolve: (l) => l.encoding ?? null }),
    delimiter: t.string({ nullable: true, description: 'CSV: comma, semicolon, tab or pipe.', resolve: (l) => l.delimiter ?? null }),
    sheet: t.string({ nullable: true, description: 'Workbooks: the sheet read.', resolve: (l) => l.sheet ?? null }),
    sheets: t.stringList({ description: "Workbooks: every sheet's name.", resolve: (l) => l.sheets ?? [] }),
    headerRow: t.exposeInt('headerRow', { description: 'The row holding the header (rows above it were skipped).' }),
    decimalSeparator: t.exposeString('decimalSeparator'),
    profile: t.string({ nullable: true, description: 'The saved column-mapping profile applied (a file of another tool), if any.', resolve: (l) => l.profile ?? null }),
  }),
});

const ColumnMapping = builder.objectRef<{ header: string; field: string }>('ColumnMapping').implement({
  fields: (t) => ({ header: t.exposeString('header'), field: t.exposeString('field') }),
});

const UploadProgress = builder
  .objectRef<uploads.UploadProgress>('UploadProgress')
  .implement({
    fields: (t) => ({
      uploadId: t.field({ type: 'ID', resolve: (p) => encodeGlobalID('DataUpload', p.uploadId) }),
      status: t.expose('status', { type: UploadStatusEnum }),
      rowsProcessed: t.exposeInt('rowsProcessed'),
      bytesProcessed: t.exposeFloat('bytesProcessed'),
      sizeBytes: t.exposeFloat('sizeBytes'),
      duplicatesSkipped: t.exposeInt('duplicatesSkipped'),
      errorMessage: t.exposeString('errorMessage', { nullable: true }),
      warnings: t.exposeStringList('warnings', { description: "A completed upload's warnings; any makes it 'Completed with warnings'." }),
    }),
  });

const uploadOrder = listOrder(
  'Upload',
  'the upload history',
  {
    CREATED_AT: { columns: ['createdAt'], description: 'When the file was uploaded.' },
    FILE_NAME: { columns: ['originalName'], description: 'The uploaded file’s name.' },
    RECORD_COUNT: { columns: ['recordCount'], description: 'How many records the file held.' },
    STATUS: { columns: ['status'], description: 'The upload’s status.' },
  },
  { field: 'CREATED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  uploads: t.prismaConnection({
    type: 'Upload',
    cursor: 'id',
    description: 'Upload history, newest first unless `orderBy` says otherwise.',
    authScopes: { admin: true },
    args: uploadOrder.arg(),
    resolve: (query, _root, args, ctx) => ctx.prisma.upload.findMany({ ...runnable(query), orderBy: uploadOrder.orderBy<Prisma.UploadOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.upload.count(),
  }),
}));

export const UploadOptionsInput = builder.inputType('UploadOptionsInput', {
  fields: (t) => ({
    uploadMode: t.field({ type: UploadModeEnum }),
    skipDuplicates: t.boolean(),
    batchSize: t.int(),
    emailNotification: t.boolean(),
  }),
});

type OptionsArg = { uploadMode?: 'append' | 'replace' | null; skipDuplicates?: boolean | null; batchSize?: number | null; emailNotification?: boolean | null } | null | undefined;

/** The upload options a mutation was given, unset ones left to the service's defaults. */
export function uploadOptionsOf(o: OptionsArg): uploads.UploadOptions {
  return {
    uploadMode: o?.uploadMode ?? undefined,
    skipDuplicates: o?.skipDuplicates ?? undefined,
    batchSize: o?.batchSize ?? undefined,
    emailNotification: o?.emailNotification ?? undefined,
  };
}

builder.mutationFields((t) => ({
  uploadFile: t.prismaField({
    type: 'Upload',
    description: 'Uploads an Access Risk Analysis export (.csv, .xlsx, .xls, up to 2 GB); it loads in the background.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      file: t.arg({ type: 'Upload', required: true }),
      options: t.arg({ type: UploadOptionsInput }),
    },
    resolve: async (query, _root, args, ctx) => {
      const f = await (args.file as unknown as { promise: Promise<FileUpload> }).promise;
      const received = await uploads.receiveFile(ctx.config.uploadsDir, f.createReadStream(), f.filename);
      const u = await uploads.acceptUpload(ctx.deps, ctx.actor, received, uploadOptionsOf(args.options));
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: u.id } });
    },
  }),
  retryUpload: t.prismaField({
    type: 'Upload',
    description: 'Re-runs a failed upload from its stored file.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: UploadNode }) },
    resolve: async (query, _root, { id }, ctx) => {
      await uploads.retryUpload(ctx.deps, ctx.actor, id.id);
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: id.id } });
    },
  }),
}));

builder.subscriptionFields((t) => ({
  uploadProgress: t.field({
    type: UploadProgress,
    description: 'Rows and bytes processed, status and errors of one upload: where it stands first, then as they happen, ending after completed or failed.',
    authScopes: { admin: true },
    args: { id: t.arg.globalID({ required: true, for: UploadNode }) },
    subscribe: (_root, { id }, ctx) => uploads.progressStream(ctx.prisma, ctx.pubsub, id.id),
    resolve: (p) => p,
  }),
}));
