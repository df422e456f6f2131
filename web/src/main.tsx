import {
  createDOMRenderer,
  FluentProvider,
  makeStaticStyles,
  RendererProvider,
  webLightTheme,
} from '@fluentui/react-components';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './App';
import { ToastProvider } from './components/toast';

const useGlobalStyles = makeStaticStyles({
  'html, body, #root': { margin: 0, padding: 0, minHeight: '100%' },
});

// The Content-Security-Policy allows <style> elements only with this response's nonce
// (the server writes it into index.html); Griffel and FluentProvider put it on theirs.
// Without a server (the Vite dev server) the placeholder stays and no nonce is needed.
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
const renderer = createDOMRenderer(
  document,
  nonce && !nonce.startsWith('__') ? { styleElementAttributes: { nonce } } : undefined,
);
const router = createAppRouter();

function Root() {
  useGlobalStyles();
  return (
    <FluentProvider theme={webLightTheme}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </FluentProvider>
  );
}

const container = document.getElementById('root');
if (container == null) throw new Error('Missing #root element');

// The first render as a transition (issue 15, 'Fast first load'): React renders it in slices,
// yielding to the browser every few milliseconds instead of one long task, so a slow phone stays
// responsive while the app starts. The server's frame (boot/bootFrame.ts) stays on screen until
// the first render commits the same markup.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <RendererProvider renderer={renderer} targetDocument={document}>
        <Root />
      </RendererProvider>
    </StrictMode>,
  );
});
