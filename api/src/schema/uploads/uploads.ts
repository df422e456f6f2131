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

export const UploadStatusEnum = enumOf('UploadStatus', {
  description: 'Where loading a file is.',
  values: ['processing', 'completed', 'failed'] as const,
  descriptions: {
    processing: 'Being read and loaded.',
    completed: 'Loaded (possibly with warnings).',
    failed: 'Not loaded: see its error message.',
  },
});
export const UploadModeEnum = enumOf('UploadMode', {
  description: 'What loading a file does to the data already loaded.',
  values: ['append', 'replace'] as const,
  descriptions: {
    replace: 'Its rows replace every loaded row.',
    append: 'Its rows are added to the loaded rows.',
  },
});

// 'Upload' is the multipart spec's scalar, so the model is exposed as DataUpload.
export const UploadNode = builder.prismaNode('Upload', {
  name: 'DataUpload',
  description: 'A file of risk data an administrator loaded.',
  id: { field: 'id', description: 'The upload’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    originalName: t.exposeString('originalName', { description: 'The file’s name.' }),
    sizeBytes: t.float({ description: 'The file’s size in bytes.', resolve: (u) => Number(u.sizeBytes) }),
    status: t.expose('status', { type: UploadStatusEnum, description: 'Where loading it is.' }),
    mode: t.expose('mode', { type: UploadModeEnum, description: 'Whether its rows replace or are added to the loaded data.' }),
    skipDuplicates: t.exposeBoolean('skipDuplicates', { description: 'Duplicates were to be left out.' }),
    batchSize: t.exposeInt('batchSize', { description: 'Rows written per batch.' }),
    emailNotification: t.exposeBoolean('emailNotification', { description: 'The uploader asked for an e-mail when it finishes.' }),
    recordCount: t.exposeInt('recordCount', { description: 'Rows loaded from it.' }),
    rowsProcessed: t.exposeInt('rowsProcessed', { description: 'Rows read so far.' }),
    bytesProcessed: t.float({ description: 'Bytes read so far.', resolve: (u) => Number(u.bytesProcessed) }),
    duplicatesSkipped: t.exposeInt('duplicatesSkipped', { description: 'Rows left out as duplicates of rows already there.' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why it failed (null unless failed).' }),
    columnMapping: t.field({
      type: [ColumnMapping],
      description: 'Source header and the field it was mapped to.',
      resolve: (u) => Object.entries((u.columnMapping ?? {}) as Record<string, string>).map(([header, field]) => ({ header, field })),
    }),
    unknownColumns: t.exposeStringList('unknownColumns', { description: 'Columns of the file the app does not know, left out.' }),
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
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was uploaded.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When loading started.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When loading finished or failed.' }),
    uploadedBy: t.relation('uploadedBy', { nullable: true, description: 'Who uploaded it (null when that user was deleted).' }),
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
  description: 'How the file of an upload was read: format, encoding, separators, sheet and header row.',
  fields: (t) => ({
    format: t.expose('format', { type: SourceFormatEnum, description: 'The kind of file.' }),
    encoding: t.string({
      nullable: true,
      description: 'CSV: UTF-8, UTF-8 with BOM, UTF-16 LE, UTF-16 BE or Windows-1252.',
      resolve: (l) => l.encoding ?? null,
    }),
    delimiter: t.string({ nullable: true, description: 'CSV: comma, semicolon, tab or pipe.', resolve: (l) => l.delimiter ?? null }),
    sheet: t.string({ nullable: true, description: 'Workbooks: the sheet read.', resolve: (l) => l.sheet ?? null }),
    sheets: t.stringList({ description: "Workbooks: every sheet's name.", resolve: (l) => l.sheets ?? [] }),
    headerRow: t.exposeInt('headerRow', { description: 'The row holding the header (rows above it were skipped).' }),
    decimalSeparator: t.exposeString('decimalSeparator', { description: 'The decimal separator numbers were read with: . or ,.' }),
    profile: t.string({
      nullable: true,
      description: 'The saved column-mapping profile applied (a file of another tool), if any.',
      resolve: (l) => l.profile ?? null,
    }),
  }),
});

const ColumnMapping = builder.objectRef<{ header: string; field: string }>('ColumnMapping').implement({
  description: 'Which field of a risk row a column of the file was read into.',
  fields: (t) => ({
    header: t.exposeString('header', { description: 'The column’s header in the file.' }),
    field: t.exposeString('field', { description: 'The risk row field it fills.' }),
  }),
});

const UploadProgress = builder.objectRef<uploads.UploadProgress>('UploadProgress').implement({
  description: 'How far loading a file is.',
  fields: (t) => ({
    uploadId: t.field({ type: 'ID', description: 'The upload’s global id.', resolve: (p) => encodeGlobalID('DataUpload', p.uploadId) }),
    status: t.expose('status', { type: UploadStatusEnum, description: 'Where loading it is.' }),
    rowsProcessed: t.exposeInt('rowsProcessed', { description: 'Rows read so far.' }),
    bytesProcessed: t.exposeFloat('bytesProcessed', { description: 'Bytes read so far.' }),
    sizeBytes: t.exposeFloat('sizeBytes', { description: 'The file’s size in bytes.' }),
    duplicatesSkipped: t.exposeInt('duplicatesSkipped', { description: 'Rows left out as duplicates so far.' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'Why it failed (null unless failed).' }),
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
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.upload.findMany({ ...runnable(query), orderBy: uploadOrder.orderBy<Prisma.UploadOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.upload.count(),
  }),
}));

export const UploadOptionsInput = builder.inputType('UploadOptionsInput', {
  description: 'How to load a file.',
  fields: (t) => ({
    uploadMode: t.field({ type: UploadModeEnum, description: 'Replace the loaded data or add to it (default replace).' }),
    skipDuplicates: t.boolean({ description: 'Leave out rows that are already there.' }),
    batchSize: t.int({ description: 'Rows written per batch.' }),
    emailNotification: t.boolean({ description: 'E-mail the uploader when it finishes.' }),
  }),
});

type OptionsArg =
  | { uploadMode?: 'append' | 'replace' | null; skipDuplicates?: boolean | null; batchSize?: number | null; emailNotification?: boolean | null }
  | null
  | undefined;

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
      file: t.arg({ type: 'Upload', required: true, description: 'The CSV, XLSX or XLS file (GraphQL multipart request).' }),
      options: t.arg({ type: UploadOptionsInput, description: 'How to load it.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const f = await (args.file as unknown as { promise: Promise<FileUpload> }).promise;
      const received = await uploads.receiveFile(ctx.deps.storage, f.createReadStream(), f.filename);
      const u = await uploads.acceptUpload(ctx.caller!, received, uploadOptionsOf(args.options));
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: u.id } });
    },
  }),
  retryUpload: t.prismaField({
    type: 'Upload',
    description: 'Re-runs a failed upload from its stored file.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: UploadNode, description: 'The failed upload’s global id.' }) },
    resolve: async (query, _root, { id }, ctx) => {
      await uploads.retryUpload(ctx.caller!, id.id);
      return ctx.prisma.upload.findUniqueOrThrow({ ...runnable(query), where: { id: id.id } });
    },
  }),
}));

builder.subscriptionFields((t) => ({
  uploadProgress: t.field({
    type: UploadProgress,
    description: 'Rows and bytes processed, status and errors of one upload: where it stands first, then as they happen, ending after completed or failed.',
    authScopes: { admin: true },
    args: { id: t.arg.globalID({ required: true, for: UploadNode, description: 'The upload’s global id.' }) },
    subscribe: (_root, { id }, ctx) => uploads.progressStream(ctx.caller!, id.id),
    resolve: (p) => p,
  }),
}));
