// The .zip file input of the Access Analysis upload forms (a rule set, a
// system's extract): the file chosen, what the <input> needs, and clearing
// both once the file is sent, so a second send needs a new choice.
import { useRef, useState, type ChangeEvent } from 'react';

export function useZipFile(onChoose?: () => void) {
  const [file, setFile] = useState<File | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const inputProps = {
    ref,
    type: 'file',
    accept: '.zip,application/zip',
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setFile(e.target.files?.[0] ?? null);
      onChoose?.();
    },
  } as const;
  const clear = () => {
    setFile(null);
    if (ref.current) ref.current.value = '';
  };
  return { file, inputProps, clear };
}
