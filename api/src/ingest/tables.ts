// Excel workbooks as tables: .xlsx read as a stream by our own reader
// (xlsx/), legacy .xls through SheetJS in a child process (xls/). Both yield
// the same batches as the CSV reader.
export { openXlsx } from './xlsx/reader.js';
export { openXls } from './xls/reader.js';
