/* A stand-in kernel for the Intel PT emulator (pt_emulate --vmlinux): each
 * system call runs entry_SYSCALL_64 up to its SYSRET, conditional branches
 * taken forward and not backward. Linked at 0xffffffff80000000 by the
 * tests, while the emulated recording puts _text at 0xffffffff81000000, so
 * decoders must relocate it as perf relocates a vmlinux. Calls, returns,
 * a loop, a tail jump, and code in .init.text that never runs. Each call
 * also goes through sched_out_stub and, by a tail jump as the kernel's
 * __switch_to_asm does, switch_stub: renamed __perf_event_task_sched_out
 * and __switch_to (objcopy --redefine-sym), perf follows context switches
 * through the trace there. */
	.text
	.globl _text
_text:
	.globl _stext
_stext:
	.type startup_64,@function
startup_64:
	nop
	ret
	.size startup_64, .-startup_64
	.p2align 4
	.globl entry_SYSCALL_64
	.type entry_SYSCALL_64,@function
entry_SYSCALL_64:
	nop
	push %rax
	call do_syscall_64
	pop %rax
	jmp 1f
	nop
1:
	xor %ecx, %ecx
entry_SYSRET_label:
	sysretq
	.size entry_SYSCALL_64, .-entry_SYSCALL_64
	.type do_syscall_64,@function
do_syscall_64:
	push %rbp
	mov %rsp, %rbp
	cmp $10, %rax
	jbe 2f
	call x64_sys_call
2:
	mov $3, %ecx
3:	dec %ecx
	jnz 3b
	call x64_sys_call
	call sched_out_stub
	call switch_to_asm
	pop %rbp
	ret
	.size do_syscall_64, .-do_syscall_64
	.globl sched_out_stub
	.type sched_out_stub,@function
sched_out_stub:
	nop
	ret
	.size sched_out_stub, .-sched_out_stub
	.type switch_to_asm,@function
switch_to_asm:
	push %rbp
	pop %rbp
	jmp switch_stub
	.size switch_to_asm, .-switch_to_asm
	.globl switch_stub
	.type switch_stub,@function
switch_stub:
	nop
	ret
	.size switch_stub, .-switch_stub
	.type x64_sys_call,@function
x64_sys_call:
	test %rax, %rax
	jz 4f
	nop
4:	call helper_a
	ret
	.type helper_a,@function
helper_a:
	nop
	jmp helper_tail
helper_tail:
	ret
	.size helper_a, .-helper_a
	.section .init.text,"ax",@progbits
	.globl kinit
	.type kinit,@function
kinit:
	nop
	ret
	.size kinit, .-kinit
