import { Button, type ButtonProps } from '@fluentui/react-components';
import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';

type LinkButtonProps = Pick<ButtonProps, 'appearance' | 'icon' | 'iconPosition' | 'size' | 'className'> & { to: string; children?: ReactNode };

/**
 * A link that looks like a button ('View All', 'Back to Dashboard'): a real
 * anchor (opens in a new tab, reads as a link), moving within the app
 * without a reload on a plain click.
 */
export function LinkButton({ to, ...props }: LinkButtonProps) {
  const navigate = useNavigate();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <Button {...props} as="a" href={to} onClick={onClick} />;
}
