// The upload form's state: the files chosen (screened as SPEC §5 says), the
// drag state, the options, and sending or previewing the first file.
import { useRef, useState, type DragEvent } from 'react';
import { useNotify } from '../../../components/forms/toast';
import { DEFAULT_OPTIONS, screenFiles, type UploadOptions } from '../uploadClient';

export type UploadFormProps = {
  /** Sends the file; resolves true once the server has it (the list is then cleared). */
  onStart: (file: File, options: UploadOptions) => Promise<boolean>;
  /** Sends the file to be previewed (nothing loaded); resolves true once the preview shows (the list is then cleared). */
  onPreview: (file: File, options: UploadOptions) => Promise<boolean>;
  sending: boolean;
  className?: string;
};

function listNames(files: readonly File[]): string {
  const names = files.map((f) => `'${f.name}'`);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

export function useUploadForm({ onStart, onPreview, sending }: Pick<UploadFormProps, 'onStart' | 'onPreview' | 'sending'>) {
  const notify = useNotify();
  const inputRef = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [options, setOptions] = useState<UploadOptions>(DEFAULT_OPTIONS);

  const choose = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    const { accepted, wrongType, tooLarge } = screenFiles(chosen);
    // SPEC §5: over 2 GB refused before sending, naming the 2GB limit; only .csv, .xlsx and .xls.
    if (tooLarge.length > 0) {
      notify({
        title: tooLarge.length > 1 ? 'Files Too Large' : 'File Too Large',
        description: `${listNames(tooLarge)} ${tooLarge.length > 1 ? 'exceed' : 'exceeds'} the 2GB limit per file.`,
        intent: 'error',
      });
    } else if (wrongType.length > 0) {
      notify({
        title: 'Unsupported File Type',
        description: `${listNames(wrongType)} cannot be uploaded. Choose a .csv, .xlsx or .xls file.`,
        intent: 'error',
      });
    }
    if (accepted.length > 0) setFiles(accepted);
  };

  const openPicker = () => {
    if (!sending) inputRef.current?.click();
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (sending) return;
    choose(Array.from(event.dataTransfer.files));
  };

  const start = async () => {
    const file = files[0];
    if (!file || sending) return;
    const started = await onStart(file, options);
    if (started) setFiles([]);
  };

  const preview = async () => {
    const file = files[0];
    if (!file || sending) return;
    if (await onPreview(file, options)) setFiles([]);
  };

  const remove = (index: number) => setFiles((list) => list.filter((_, i) => i !== index));

  return { inputRef, files, dragging, setDragging, options, setOptions, choose, openPicker, onDrop, start, preview, remove };
}
