import {
  createDOMRenderer,
  FluentProvider,
  makeStaticStyles,
  RendererProvider,
  webLightTheme,
} from '@fluentui/react-components';
import { StrictMode } from 'react';
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

createRoot(container).render(
  <StrictMode>
    <RendererProvider renderer={renderer} targetDocument={document}>
      <Root />
    </RendererProvider>
  </StrictMode>,
);
